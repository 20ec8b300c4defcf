// Who owns programs: accounts, their advertiser profile, and the server's own settings; the CLI's login state.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
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

export type Account = typeof accounts.$inferSelect
