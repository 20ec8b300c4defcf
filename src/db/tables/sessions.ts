// Browser sign-in: one-time links and sessions of owners and partners.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from './shared.ts'
import { accounts, members } from './accounts.ts'
import { partners } from './programs.ts'

/** A token of an account (the dashboard) or of a partner (the portal), kept as its SHA-256 hash, good until `expires_at`. */
const tokenColumns = () => ({
  id: integer('id').primaryKey({ autoIncrement: true }),
  tokenHash: text('token_hash').notNull().unique(),
  accountId: integer('account_id').references(() => accounts.id),
  partnerId: integer('partner_id').references(() => partners.id),
  /** The member an account's link or session signs in (null: the owner, for rows made before members). */
  memberId: integer('member_id').references(() => members.id),
  createdAt: createdAt(),
  expiresAt: integer('expires_at').notNull(),
})

/** One-time sign-in links; used_at makes a link work once (docs/decisions.md, Dashboard and partner portal). */
export const signInLinks = sqliteTable('sign_in_links', { ...tokenColumns(), usedAt: integer('used_at') })

/** Signed-in browser sessions (cookie svc_session); revoked on sign-out. */
export const webSessions = sqliteTable('web_sessions', { ...tokenColumns(), revokedAt: integer('revoked_at') })
