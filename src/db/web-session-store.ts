import { and, eq, gt, isNull, lt, or } from 'drizzle-orm'
import { hashSecret, newToken } from './credentials.ts'
import type { Connection } from './open.ts'
import type { Role } from '../domain/role.ts'
import { accounts, advertisers, members, partners, programs, signInLinks, webSessions } from './schema.ts'

/**
 * Who a link or a session signs in: a member of an account (the dashboard; no `memberId` is the
 * owner) or a partner (the portal).
 */
export type Principal = { kind: 'account'; accountId: number; memberId?: number | null } | { kind: 'partner'; partnerId: number }

/** A signed-in session as the pages use it. */
export type SessionOf =
  | { kind: 'account'; sessionId: number; accountId: number; memberId: number | null; email: string; role: Role }
  | {
      kind: 'partner'
      sessionId: number
      partnerId: number
      programId: number
      accountId: number
      name: string | null
      programName: string
    }

const principalOf = (row: { accountId: number | null; partnerId: number | null; memberId: number | null }): Principal | null =>
  row.accountId !== null
    ? { kind: 'account', accountId: row.accountId, memberId: row.memberId }
    : row.partnerId !== null
      ? { kind: 'partner', partnerId: row.partnerId }
      : null

const columns = (who: Principal) =>
  who.kind === 'account'
    ? { accountId: who.accountId, partnerId: null, memberId: who.memberId ?? null }
    : { accountId: null, partnerId: who.partnerId, memberId: null }

/**
 * Sign-in links and browser sessions of the dashboard and the partner portal. Only SHA-256
 * hashes of their tokens are stored. Writes run inside deps.database.writer.run().
 */
export class WebSessionStore {
  constructor(private readonly connection: Connection) {}

  /** Issues a one-time sign-in link token valid for `lifetimeMs`; returns the plaintext, shown once. */
  createSignInLink(who: Principal, now: number, lifetimeMs: number): { token: string; expiresAt: number } {
    const { db } = this.connection
    // Links nobody can use any more go: the table stays the size of the last few minutes.
    db.delete(signInLinks)
      .where(or(lt(signInLinks.expiresAt, now - lifetimeMs), lt(signInLinks.usedAt, now - lifetimeMs)))
      .run()
    const token = newToken('', 32)
    const expiresAt = now + lifetimeMs
    db.insert(signInLinks)
      .values({ tokenHash: hashSecret(token), ...columns(who), createdAt: now, expiresAt })
      .run()
    return { token, expiresAt }
  }

  /**
   * Whom an unused, unexpired sign-in link would sign in, without using it: opening a link (GET,
   * HEAD) only shows its page, since mail scanners and chat previews open links too.
   */
  peekSignInLink(token: string, now: number): (Principal & { expiresAt: number }) | null {
    const { db } = this.connection
    const row = db
      .select({
        accountId: signInLinks.accountId,
        partnerId: signInLinks.partnerId,
        memberId: signInLinks.memberId,
        expiresAt: signInLinks.expiresAt,
      })
      .from(signInLinks)
      .where(and(eq(signInLinks.tokenHash, hashSecret(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
      .get()
    const who = row ? principalOf(row) : null
    return who && row ? { ...who, expiresAt: row.expiresAt } : null
  }

  /**
   * Uses a sign-in link: marks it used and answers whom it signs in, in one UPDATE, so that two
   * openings racing sign in once. Null when unknown, already used or expired at `now`.
   */
  useSignInLink(token: string, now: number): Principal | null {
    const { db } = this.connection
    const row = db
      .update(signInLinks)
      .set({ usedAt: now })
      .where(and(eq(signInLinks.tokenHash, hashSecret(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
      .returning({ accountId: signInLinks.accountId, partnerId: signInLinks.partnerId, memberId: signInLinks.memberId })
      .get()
    return row ? principalOf(row) : null
  }

  /** Starts a session for `who`; returns the plaintext cookie value, never stored. */
  createWebSession(who: Principal, now: number, lifetimeMs: number): string {
    const { db } = this.connection
    db.delete(webSessions)
      .where(lt(webSessions.expiresAt, now - lifetimeMs))
      .run()
    const token = newToken('', 32)
    db.insert(webSessions)
      .values({ tokenHash: hashSecret(token), ...columns(who), createdAt: now, expiresAt: now + lifetimeMs })
      .run()
    return token
  }

  /**
   * The session of a cookie value: null when unknown, revoked, expired, when its member was removed, or when its account is
   * suspended (a suspension ends the dashboard too, as it does CLI tokens), or when its partner is
   * deleted or not active (docs/decisions.md, Hostile input, turn 3: only an active partner signs in).
   */
  findWebSession(token: string, now: number): SessionOf | null {
    const { db } = this.connection
    const row = db
      .select()
      .from(webSessions)
      .where(eq(webSessions.tokenHash, hashSecret(token)))
      .get()
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null
    if (row.accountId !== null) {
      const account = db.select().from(accounts).where(eq(accounts.id, row.accountId)).get()
      if (!account || account.suspended) return null
      if (row.memberId === null)
        return { kind: 'account', sessionId: row.id, accountId: account.id, memberId: null, email: account.email, role: 'owner' }
      // The member as they are now: a removal ends the session, a new role applies at once
      // (docs/decisions.md, Teams and the audit log).
      const member = db.select().from(members).where(eq(members.id, row.memberId)).get()
      if (!member || member.removedAt !== null || member.accountId !== account.id) return null
      return { kind: 'account', sessionId: row.id, accountId: account.id, memberId: member.id, email: member.email, role: member.role }
    }
    if (row.partnerId === null) return null
    const partner = db
      .select({
        programId: partners.programId,
        accountId: advertisers.accountId,
        suspended: accounts.suspended,
        status: partners.status,
        deletedAt: partners.deletedAt,
        name: partners.name,
        programName: programs.name,
      })
      .from(partners)
      .innerJoin(programs, eq(programs.id, partners.programId))
      .innerJoin(advertisers, eq(advertisers.id, programs.advertiserId))
      .innerJoin(accounts, eq(accounts.id, advertisers.accountId))
      .where(eq(partners.id, row.partnerId))
      .get()
    if (!partner || partner.suspended || partner.status !== 'active' || partner.deletedAt !== null) return null
    const { suspended: _, status: __, deletedAt: ___, ...of } = partner
    return { kind: 'partner', sessionId: row.id, partnerId: row.partnerId, ...of }
  }

  /** Revokes a session (sign out): its cookie signs nobody in from now on. */
  revokeWebSession(sessionId: number, now: number): void {
    const { db } = this.connection
    db.update(webSessions)
      .set({ revokedAt: now })
      .where(and(eq(webSessions.id, sessionId), isNull(webSessions.revokedAt)))
      .run()
  }

  /**
   * Signs `who` out everywhere: revokes every live session and uses up every unused link of theirs
   * (docs/decisions.md, Hostile input, turn 3: a suspension, or the owner's "sign out
   * everywhere"). Nothing of it comes back, whatever happens to the account or partner later.
   * Returns how many sessions it ended.
   */
  revokeAllOf(who: Principal, now: number): number {
    const { db } = this.connection
    const ofSession = who.kind === 'account' ? eq(webSessions.accountId, who.accountId) : eq(webSessions.partnerId, who.partnerId)
    const ofLink = who.kind === 'account' ? eq(signInLinks.accountId, who.accountId) : eq(signInLinks.partnerId, who.partnerId)
    db.update(signInLinks)
      .set({ usedAt: now })
      .where(and(ofLink, isNull(signInLinks.usedAt)))
      .run()
    return db
      .update(webSessions)
      .set({ revokedAt: now })
      .where(and(ofSession, isNull(webSessions.revokedAt), gt(webSessions.expiresAt, now)))
      .returning({ id: webSessions.id })
      .all().length
  }

  /** The partner `partnerId` when it belongs to program `programId`, else null. */
  findProgramPartner(programId: number, partnerId: number): { id: number } | null {
    const { db } = this.connection
    return (
      db
        .select({ id: partners.id })
        .from(partners)
        .where(and(eq(partners.id, partnerId), eq(partners.programId, programId)))
        .get() ?? null
    )
  }
}
