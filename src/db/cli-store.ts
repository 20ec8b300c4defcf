import { and, asc, eq, gt, gte, lt } from 'drizzle-orm'
import { LOGIN_TOKEN_LIFETIME_MS, SESSION_RETENTION_MS } from '../domain/cli-session'
import { hashSecret, newToken } from './credentials'
import type { Db } from './open'
import { accounts, advertisers, chainRuns, cliSessions, links, loginTokens, partners, programs, testFixtures, usedIdTokens, type Account } from './schema'

// Reads and writes of the CLI routes. Functions that write must run inside
// deps.database.writer.run(), so that each request's read-decide-write is one unit.

export type CliSession = typeof cliSessions.$inferSelect

/** Creates a pending login session with a random state; drops sessions nobody can use any more. */
export function createSession(db: Db, now: number, clientIp: string | null = null): CliSession {
  db.delete(cliSessions).where(lt(cliSessions.createdAt, now - SESSION_RETENTION_MS)).run()
  return db.insert(cliSessions).values({ state: newToken('', 32), createdAt: now, clientIp }).returning().get()
}

/** Start times of the sessions `clientIp` started since `since` that are still pending, oldest first. */
export function pendingSessionTimes(db: Db, clientIp: string, since: number): number[] {
  return db.select({ at: cliSessions.createdAt }).from(cliSessions)
    .where(and(eq(cliSessions.clientIp, clientIp), eq(cliSessions.status, 'pending'), gte(cliSessions.createdAt, since)))
    .orderBy(asc(cliSessions.createdAt)).all().map((row) => row.at)
}

/**
 * Records that the id_token with this SHA-256 signed a session in; false when it already had.
 * The PRIMARY KEY decides, inside the sign-in's own writer unit, so two callbacks with one
 * token cannot both pass. Rows of tokens that have expired anyway are dropped.
 */
export function useIdToken(db: Db, tokenHash: string, expiresAt: number, now: number): boolean {
  db.delete(usedIdTokens).where(lt(usedIdTokens.expiresAt, now)).run()
  const inserted = db.insert(usedIdTokens).values({ tokenHash, expiresAt }).onConflictDoNothing().returning({ tokenHash: usedIdTokens.tokenHash }).all()
  return inserted.length === 1
}

/** The session of `state`, or null. */
export function findSession(db: Db, state: string): CliSession | null {
  return db.select().from(cliSessions).where(eq(cliSessions.state, state)).get() ?? null
}

/** Signs a session in: issues the account's login token and parks its plaintext for the one poll. */
export function completeSession(db: Db, session: CliSession, accountId: number, now: number): void {
  const token = newToken('svc_login_', 32)
  db.insert(loginTokens).values({ accountId, tokenHash: hashSecret(token), createdAt: now, expiresAt: now + LOGIN_TOKEN_LIFETIME_MS }).run()
  db.update(cliSessions).set({ status: 'complete', accountId, pendingToken: token }).where(eq(cliSessions.id, session.id)).run()
}

/** Marks a signed-in session consumed and clears its plaintext token: it is handed out once. */
export function consumeSession(db: Db, session: CliSession): void {
  db.update(cliSessions).set({ status: 'consumed', pendingToken: null }).where(eq(cliSessions.id, session.id)).run()
}

/**
 * Withdraws the token of a signed-in session that nobody polled in time: the plaintext does
 * not stay in the database and the token stops working. The session stays `complete` (and
 * polls as expired), since nothing was handed out.
 */
export function abandonSession(db: Db, session: CliSession): void {
  if (!session.pendingToken) return
  db.delete(loginTokens).where(eq(loginTokens.tokenHash, hashSecret(session.pendingToken))).run()
  db.update(cliSessions).set({ pendingToken: null }).where(eq(cliSessions.id, session.id)).run()
}

/** An account by id, or null. */
export function findAccount(db: Db, id: number): Account | null {
  return db.select().from(accounts).where(eq(accounts.id, id)).get() ?? null
}

export type LoginTokenMatch = { kind: 'valid'; accountId: number } | { kind: 'invalid' }

/** The account a login token belongs to, when the token is known and not expired at `now`. */
export function findLoginToken(db: Db, token: string, now: number): LoginTokenMatch {
  // Looked up by its SHA-256: the index compares digests, never the secret itself.
  const row = db.select().from(loginTokens).where(eq(loginTokens.tokenHash, hashSecret(token))).get()
  if (!row || row.expiresAt <= now) return { kind: 'invalid' }
  return { kind: 'valid', accountId: row.accountId }
}

/** The advertiser (brand profile) of an account, or null when it has none. */
export function findAdvertiser(db: Db, accountId: number): { id: number } | null {
  return db.select({ id: advertisers.id }).from(advertisers).where(eq(advertisers.accountId, accountId)).get() ?? null
}

/** An advertiser's programs, oldest first. */
export function listPrograms(db: Db, advertiserId: number) {
  return db.select().from(programs).where(eq(programs.advertiserId, advertiserId)).orderBy(asc(programs.id)).all()
}

/** Start times of a program's chains within the last `windowMs`. */
export function recentChainRuns(db: Db, programId: number, now: number, windowMs: number): number[] {
  return db.select({ at: chainRuns.createdAt }).from(chainRuns)
    .where(and(eq(chainRuns.programId, programId), gt(chainRuns.createdAt, now - windowMs))).all().map((r) => r.at)
}

/** Counts one chain run against the program's hourly cap; older runs no longer matter and go. */
export function recordChainRun(db: Db, programId: number, now: number, windowMs: number): void {
  db.delete(chainRuns).where(and(eq(chainRuns.programId, programId), lt(chainRuns.createdAt, now - windowMs))).run()
  db.insert(chainRuns).values({ programId, createdAt: now }).run()
}

export interface TestFixture {
  partnerId: number
  linkId: number
  shortLink: string
}

/**
 * Prepares the records a program's test events run against (docs/api.md: Test fixture): a test
 * partner and an active referral link, created on first use and refreshed after (the link is
 * turned back on, so that a disabled fixture link cannot fail the chain).
 */
export function prepareFixture(db: Db, programId: number, now: number): TestFixture {
  const existing = db.select({ partnerId: testFixtures.partnerId, linkId: testFixtures.linkId, shortLink: links.shortLink })
    .from(testFixtures).innerJoin(links, eq(links.id, testFixtures.linkId)).where(eq(testFixtures.programId, programId)).get()
  if (existing) {
    db.update(links).set({ active: true, programId, partnerId: existing.partnerId }).where(eq(links.id, existing.linkId)).run()
    db.update(testFixtures).set({ refreshedAt: now }).where(eq(testFixtures.programId, programId)).run()
    return existing
  }
  const partner = db.insert(partners).values({ programId, name: 'svc test partner', createdAt: now }).returning({ id: partners.id }).get()
  // short_link is unique across programs: a random suffix keeps test links from taking real names.
  const shortLink = newToken('svc-test-', 9)
  const link = db.insert(links).values({ programId, partnerId: partner.id, shortLink, createdAt: now }).returning({ id: links.id }).get()
  db.insert(testFixtures).values({ programId, partnerId: partner.id, linkId: link.id, refreshedAt: now })
    .onConflictDoUpdate({ target: testFixtures.programId, set: { partnerId: partner.id, linkId: link.id, refreshedAt: now } }).run()
  return { partnerId: partner.id, linkId: link.id, shortLink }
}
