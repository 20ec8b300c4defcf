// Who owns programs: accounts, their advertiser profile, and the server's own settings; the CLI's login state.
import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { ROLES } from '../../domain/role.ts'
import { bool, createdAt } from './shared.ts'

/** Key-value settings the server keeps for itself (the generated SVC_SECRET). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

export const accounts = sqliteTable(
  'accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Not unique: one person may own several accounts (docs/decisions.md names none as unique). */
    email: text('email').notNull(),
    /** The email as compared (domain/email.ts emailKey): sign-in finds accounts by it. */
    emailKey: text('email_key'),
    name: text('name'),
    suspended: bool('suspended').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('accounts_email_key').on(t.emailKey)],
)

/** An account's brand profile; programs belong to it (docs/api.md: "advertiser"). */
export const advertisers = sqliteTable('advertisers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  accountId: integer('account_id')
    .notNull()
    .unique()
    .references(() => accounts.id),
  name: text('name'),
  createdAt: createdAt(),
})

/** Account login tokens handed out by the CLI login flow (hash only). */
export const loginTokens = sqliteTable('login_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
  expiresAt: integer('expires_at').notNull(),
})

export const cliSessions = sqliteTable(
  'cli_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    state: text('state').notNull().unique(),
    status: text('status', { enum: ['pending', 'complete', 'consumed'] })
      .notNull()
      .default('pending'),
    accountId: integer('account_id').references(() => accounts.id),
    /** The login token between callback and the one poll that hands it out; cleared then. */
    pendingToken: text('pending_token'),
    /** The client IP that started it: pending sessions are capped per IP (docs/decisions.md, Hostile input). */
    clientIp: text('client_ip'),
    createdAt: createdAt(),
  },
  (t) => [index('cli_sessions_client_ip').on(t.clientIp, t.createdAt)],
)

/**
 * id_tokens that signed a session in, by SHA-256: an id_token is good for one sign-in
 * (docs/decisions.md, Hostile input). A row is kept until the token has expired anyway.
 */
export const usedIdTokens = sqliteTable(
  'used_id_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('used_id_tokens_expiry').on(t.expiresAt)],
)

/**
 * The people of an account (docs/decisions.md, Teams and the audit log): its owner (the account's
 * own email, made with the account) and the admins and viewers it invites. A removed member keeps
 * its row (`removed_at`) so that its sessions and links, which point at it, end at once and stay
 * ended; the same email may be invited again (a new row).
 */
export const members = sqliteTable(
  'members',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    email: text('email').notNull(),
    /** The email as compared (domain/email.ts emailKey): sign-in finds members by it. */
    emailKey: text('email_key').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: createdAt(),
    removedAt: integer('removed_at'),
  },
  (t) => [
    uniqueIndex('members_account_email').on(t.accountId, t.emailKey).where(sql`removed_at IS NULL`),
    index('members_email_key').on(t.emailKey),
  ],
)

/**
 * The append-only audit log: every change of money or access, written by the use case in the same
 * writer unit as the change (src/db/audit-store.ts). Triggers in its migration refuse UPDATE and
 * DELETE. `program_id` is null for an account's own events (members); a program's log lists those
 * too (Turn 4, settled).
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    accountId: integer('account_id').notNull(),
    programId: integer('program_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    ip: text('ip'),
    /** JSON object of what changed. */
    details: text('details').notNull(),
  },
  (t) => [index('audit_log_program').on(t.programId, t.id), index('audit_log_account').on(t.accountId, t.id)],
)

export type Account = typeof accounts.$inferSelect
export type Member = typeof members.$inferSelect
export type AuditRow = typeof auditLog.$inferSelect
