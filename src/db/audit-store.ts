import { and, desc, eq, gte, isNull, lt, or, type SQL } from 'drizzle-orm'
import type { Actor, AuditAction } from '../domain/audit.ts'
import type { Connection } from './open.ts'
import { advertisers, auditLog, type AuditRow, programs } from './schema.ts'

/** One entry as a use case writes it: the program's (or, for members, the account's), what, on which object, what changed. */
export interface AuditEntry {
  /** The program acted on; its account is found from it. */
  program?: number
  /** The account, for an account's own events (members); taken from `program` when that is given. */
  account?: number
  action: AuditAction
  object: [type: string, id: number | string]
  details?: Record<string, unknown>
}

/** Filters of a program's log: who (part of the actor, any case), what (an action or its prefix, `payout.`), dates (epoch ms: from inclusive, to exclusive). */
export interface AuditFilter {
  actor?: string
  action?: string
  from?: number
  to?: number
  /** The last id seen (newest first): entries older than it. */
  before?: number | null
  limit: number
}

/**
 * The append-only audit log (docs/decisions.md, Teams and the audit log). `write` runs inside the
 * caller's writer unit, the one that makes the change, so the entry and the change commit or roll
 * back together:
 *
 *   stores.audit.write(by, now, { program: program.id, action: 'payout.paid', object: ['payout', id], details: { reference } })
 *
 * Nothing updates or deletes an entry (the table's triggers refuse both).
 */
export class AuditStore {
  constructor(private readonly connection: Connection) {}

  write(by: Actor, at: number, entry: AuditEntry): void {
    // A save that changed nothing (the same settings sent again) is no change to record.
    if (entry.action.endsWith('.update') && entry.details !== undefined && Object.keys(entry.details).length === 0) return
    const { db } = this.connection
    const accountId =
      entry.program !== undefined
        ? db
            .select({ accountId: advertisers.accountId })
            .from(programs)
            .innerJoin(advertisers, eq(advertisers.id, programs.advertiserId))
            .where(eq(programs.id, entry.program))
            .get()?.accountId
        : entry.account
    if (accountId === undefined) throw new Error(`audit: no account for ${entry.action}`)
    db.insert(auditLog)
      .values({
        at,
        accountId,
        programId: entry.program ?? null,
        actor: by.actor,
        action: entry.action,
        objectType: entry.object[0],
        objectId: String(entry.object[1]),
        ip: by.ip,
        details: JSON.stringify(entry.details ?? {}),
      })
      .run()
  }

  /** A program's entries and its account's own (members), newest first; one more than `limit` tells a next page. */
  listForProgram(programId: number, accountId: number, filter: AuditFilter): AuditRow[] {
    const where: (SQL | undefined)[] = [
      or(eq(auditLog.programId, programId), and(isNull(auditLog.programId), eq(auditLog.accountId, accountId))),
    ]
    if (filter.from !== undefined) where.push(gte(auditLog.at, filter.from))
    if (filter.to !== undefined) where.push(lt(auditLog.at, filter.to))
    if (filter.action?.endsWith('.')) {
      // A prefix (`payout.`): every action of that object.
      where.push(gte(auditLog.action, filter.action), lt(auditLog.action, `${filter.action.slice(0, -1)}/`))
    } else if (filter.action) where.push(eq(auditLog.action, filter.action))
    const chunk = (before: number | null | undefined, size: number) =>
      this.connection.db
        .select()
        .from(auditLog)
        .where(and(...where, before ? lt(auditLog.id, before) : undefined))
        .orderBy(desc(auditLog.id))
        .limit(size)
        .all()
    if (!filter.actor) return chunk(filter.before, filter.limit + 1)
    // Who: part of the actor, compared in the application (any case, never SQLite's ASCII lower()).
    const needle = filter.actor.normalize('NFKC').toLowerCase()
    const out: AuditRow[] = []
    let before = filter.before
    for (;;) {
      const rows = chunk(before, 500)
      for (const row of rows) {
        if (row.actor.normalize('NFKC').toLowerCase().includes(needle)) out.push(row)
        if (out.length > filter.limit) return out
      }
      if (rows.length < 500) return out
      before = rows[rows.length - 1].id
    }
  }

  /** Every entry of a program (its own, not its account's), oldest first: for checks against the ledger. */
  allOfProgram(programId: number): AuditRow[] {
    return this.connection.db.select().from(auditLog).where(eq(auditLog.programId, programId)).orderBy(auditLog.id).all()
  }
}
