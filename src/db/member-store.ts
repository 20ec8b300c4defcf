import { and, asc, eq, isNull } from 'drizzle-orm'
import { emailKey } from '../domain/email.ts'
import type { InvitedRole, Role } from '../domain/role.ts'
import { type Taken, uniqueViolation } from './errors.ts'
import type { Connection } from './open.ts'
import { accounts, type Member, members, signInLinks, webSessions } from './schema.ts'

/**
 * The members of accounts (docs/decisions.md, Teams and the audit log): the owner, made with the
 * account, and the admins and viewers it invites. Writes run inside a writer unit.
 */
export class MemberStore {
  constructor(private readonly connection: Connection) {}

  /** Adds a member; `taken` when the account already has one with this email. */
  addMember(accountId: number, email: string, role: Role, now: number): Member | Taken {
    try {
      return this.connection.db
        .insert(members)
        .values({ accountId, email, emailKey: emailKey(email), role, createdAt: now })
        .returning()
        .get()
    } catch (error) {
      const taken = uniqueViolation(error)
      if (taken) return taken
      throw error
    }
  }

  /** A current (not removed) member, or null. */
  findMember(id: number): Member | null {
    return (
      this.connection.db
        .select()
        .from(members)
        .where(and(eq(members.id, id), isNull(members.removedAt)))
        .get() ?? null
    )
  }

  /** The current members of an account, the owner first, then by invitation. */
  listMembers(accountId: number): Member[] {
    return this.connection.db
      .select()
      .from(members)
      .where(and(eq(members.accountId, accountId), isNull(members.removedAt)))
      .orderBy(asc(members.id))
      .all()
      .sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'))
  }

  /** The account's owner member, or null (an account made before members has one from the migration). */
  ownerOf(accountId: number): Member | null {
    return (
      this.connection.db
        .select()
        .from(members)
        .where(and(eq(members.accountId, accountId), eq(members.role, 'owner'), isNull(members.removedAt)))
        .get() ?? null
    )
  }

  /** Changes an invited member's role: it applies to their open sessions at the next request. */
  setRole(id: number, role: InvitedRole): void {
    this.connection.db.update(members).set({ role }).where(eq(members.id, id)).run()
  }

  /** Removes a member: their sessions end and their unused links stop working, at once. */
  removeMember(id: number, now: number): void {
    const { db } = this.connection
    db.update(members).set({ removedAt: now }).where(eq(members.id, id)).run()
    db.update(webSessions)
      .set({ revokedAt: now })
      .where(and(eq(webSessions.memberId, id), isNull(webSessions.revokedAt)))
      .run()
    db.update(signInLinks)
      .set({ usedAt: now })
      .where(and(eq(signInLinks.memberId, id), isNull(signInLinks.usedAt)))
      .run()
  }

  /** Current members with this email (by its key) of accounts not suspended: who a sign-in link goes to. */
  activeByEmail(email: string): Member[] {
    return this.connection.db
      .select({ member: members })
      .from(members)
      .innerJoin(accounts, eq(accounts.id, members.accountId))
      .where(and(eq(members.emailKey, emailKey(email)), isNull(members.removedAt), eq(accounts.suspended, false)))
      .limit(20)
      .all()
      .map((row) => row.member)
  }
}
