import { and, asc, eq, gt, gte, lt } from 'drizzle-orm'
import { LOGIN_TOKEN_LIFETIME_MS, SESSION_RETENTION_MS } from '../domain/cli-session.ts'
import { hashSecret, newToken } from './credentials.ts'
import type { Catalog } from './catalog.ts'
import type { Connection } from './open.ts'
import { chainRuns, cliSessions, links, loginTokens, partners, testFixtures, usedIdTokens } from './schema.ts'

export type CliSession = typeof cliSessions.$inferSelect

export type LoginTokenMatch = { kind: 'valid'; accountId: number } | { kind: 'invalid' }

export interface TestFixture {
  partnerId: number
  linkId: number
  shortLink: string
  /** Whether this call made the test partner (its `partner.created` is the caller's to emit). */
  created: boolean
}

/**
 * Reads and writes of the CLI routes: login sessions and tokens, the synthetic chain's cap and
 * its fixture. Writes run inside deps.database.writer.run(), so that each request's
 * read-decide-write is one unit.
 */
export class CliStore {
  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {}

  private get db() {
    return this.connection.db
  }

  /** Creates a pending login session with a random state; drops sessions nobody can use any more. */
  createSession(now: number, clientIp: string | null = null): CliSession {
    const { db } = this
    db.delete(cliSessions)
      .where(lt(cliSessions.createdAt, now - SESSION_RETENTION_MS))
      .run()
    return db
      .insert(cliSessions)
      .values({ state: newToken('', 32), createdAt: now, clientIp })
      .returning()
      .get()
  }

  /** Start times of the sessions `clientIp` started since `since` that are still pending, oldest first. */
  pendingSessionTimes(clientIp: string, since: number): number[] {
    const { db } = this
    return db
      .select({ at: cliSessions.createdAt })
      .from(cliSessions)
      .where(and(eq(cliSessions.clientIp, clientIp), eq(cliSessions.status, 'pending'), gte(cliSessions.createdAt, since)))
      .orderBy(asc(cliSessions.createdAt))
      .all()
      .map((row) => row.at)
  }

  /**
   * Records that the id_token with this SHA-256 signed a session in; false when it already had.
   * The PRIMARY KEY decides, inside the sign-in's own writer unit, so two callbacks with one
   * token cannot both pass. Rows of tokens that have expired anyway are dropped.
   */
  useIdToken(tokenHash: string, expiresAt: number, now: number): boolean {
    const { db } = this
    db.delete(usedIdTokens).where(lt(usedIdTokens.expiresAt, now)).run()
    const inserted = db
      .insert(usedIdTokens)
      .values({ tokenHash, expiresAt })
      .onConflictDoNothing()
      .returning({ tokenHash: usedIdTokens.tokenHash })
      .all()
    return inserted.length === 1
  }

  /** The session of `state`, or null. */
  findSession(state: string): CliSession | null {
    const { db } = this
    return db.select().from(cliSessions).where(eq(cliSessions.state, state)).get() ?? null
  }

  /** Signs a session in: issues the account's login token and parks its plaintext for the one poll. */
  completeSession(session: CliSession, accountId: number, now: number): void {
    const { db } = this
    const token = newToken('svc_login_', 32)
    db.insert(loginTokens)
      .values({ accountId, tokenHash: hashSecret(token), createdAt: now, expiresAt: now + LOGIN_TOKEN_LIFETIME_MS })
      .run()
    db.update(cliSessions).set({ status: 'complete', accountId, pendingToken: token }).where(eq(cliSessions.id, session.id)).run()
  }

  /** Marks a signed-in session consumed and clears its plaintext token: it is handed out once. */
  consumeSession(session: CliSession): void {
    const { db } = this
    db.update(cliSessions).set({ status: 'consumed', pendingToken: null }).where(eq(cliSessions.id, session.id)).run()
  }

  /**
   * Withdraws the token of a signed-in session that nobody polled in time: the plaintext does
   * not stay in the database and the token stops working. The session stays `complete` (and
   * polls as expired), since nothing was handed out.
   */
  abandonSession(session: CliSession): void {
    const { db } = this
    if (!session.pendingToken) return
    db.delete(loginTokens)
      .where(eq(loginTokens.tokenHash, hashSecret(session.pendingToken)))
      .run()
    db.update(cliSessions).set({ pendingToken: null }).where(eq(cliSessions.id, session.id)).run()
  }

  /** The account a login token belongs to, when the token is known and not expired at `now`. */
  findLoginToken(token: string, now: number): LoginTokenMatch {
    const { db } = this
    // Looked up by its SHA-256: the index compares digests, never the secret itself.
    const row = db
      .select()
      .from(loginTokens)
      .where(eq(loginTokens.tokenHash, hashSecret(token)))
      .get()
    if (!row || row.expiresAt <= now) return { kind: 'invalid' }
    return { kind: 'valid', accountId: row.accountId }
  }

  /** Start times of a program's chains within the last `windowMs`. */
  recentChainRuns(programId: number, now: number, windowMs: number): number[] {
    const { db } = this
    return db
      .select({ at: chainRuns.createdAt })
      .from(chainRuns)
      .where(and(eq(chainRuns.programId, programId), gt(chainRuns.createdAt, now - windowMs)))
      .all()
      .map((r) => r.at)
  }

  /** Counts one chain run against the program's hourly cap; older runs no longer matter and go. */
  recordChainRun(programId: number, now: number, windowMs: number): void {
    const { db } = this
    db.delete(chainRuns)
      .where(and(eq(chainRuns.programId, programId), lt(chainRuns.createdAt, now - windowMs)))
      .run()
    db.insert(chainRuns).values({ programId, createdAt: now }).run()
  }

  /**
   * Prepares the records a program's test events run against (docs/api.md: Test fixture): a test
   * partner and an active referral link, created on first use and refreshed after (the link is
   * turned back on, so that a disabled fixture link cannot fail the chain).
   */
  prepareFixture(programId: number, now: number): TestFixture {
    const { db } = this
    this.catalog.changed() // the fixture link may be turned back on
    const existing = db
      .select({ partnerId: testFixtures.partnerId, linkId: testFixtures.linkId, shortLink: links.shortLink })
      .from(testFixtures)
      .innerJoin(links, eq(links.id, testFixtures.linkId))
      .where(eq(testFixtures.programId, programId))
      .get()
    if (existing) {
      db.update(links).set({ active: true, programId, partnerId: existing.partnerId }).where(eq(links.id, existing.linkId)).run()
      db.update(testFixtures).set({ refreshedAt: now }).where(eq(testFixtures.programId, programId)).run()
      return { ...existing, created: false }
    }
    const partner = db.insert(partners).values({ programId, name: 'svc test partner', createdAt: now }).returning({ id: partners.id }).get()
    // short_link is unique across programs: a random suffix keeps test links from taking real names.
    const shortLink = newToken('svc-test-', 9)
    const link = db.insert(links).values({ programId, partnerId: partner.id, shortLink, createdAt: now }).returning({ id: links.id }).get()
    db.insert(testFixtures)
      .values({ programId, partnerId: partner.id, linkId: link.id, refreshedAt: now })
      .onConflictDoUpdate({ target: testFixtures.programId, set: { partnerId: partner.id, linkId: link.id, refreshedAt: now } })
      .run()
    return { partnerId: partner.id, linkId: link.id, shortLink, created: true }
  }
}
