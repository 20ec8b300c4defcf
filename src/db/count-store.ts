import { and, count, eq, ne, notExists, isNotNull, sum, type SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { RecentAddresses } from '../domain/readiness.ts'
import type { Connection } from './open.ts'
import { commissions, customers, dailyCounts, links, processorEvents, testFixtures } from './schema.ts'

/** A program's records of one mode (live or test). */
export interface Counts {
  clicks: number
  /** Customers at the lead stage or later (lead, converted): settled, so counted (docs/api.md, Customer states). */
  leads: number
  /** Browser-mode leads under server_required, which docs/api.md says do not count: shown apart. */
  provisional_leads: number
  /** Sale rows, whatever their refund state. */
  sales: number
  /** Earned commission entries; reversals are not subtracted. */
  commissions: number
}

export interface ReadinessFacts {
  counts: { live: Counts; test: Counts }
  /** Active links with a partner, the synthetic chain's own link left out. */
  activeLinks: number
  processorEvents: number
  recentAddresses: RecentAddresses
}

type ModeTable = SQLiteTable & { programId: SQLiteColumn; testMode: SQLiteColumn }

/**
 * The counts of a program, the one source for readiness and GET /api/v1/cli/status. Clicks and
 * sales are the sums of the program's daily_counts rows, kept in each write's own transaction by
 * the triggers of migration 0005 and, for clicks, the tracking store's count per batch (neither
 * table has an index by program: each would cost every COMMIT a page per program, issue 14);
 * leads and commissions are counted on each call, one grouped query per kind (both routes are
 * rate limited). Test-mode records count under `test` only (issue 4), never under `live`.
 */
export class CountStore {
  private latestIps: ReturnType<Connection['client']['prepare']> | null = null

  constructor(private readonly connection: Connection) {}

  /** A program's clicks, leads, provisional leads, sales and commissions, live and test apart. */
  programCounts(programId: number): { live: Counts; test: Counts } {
    const rolled = this.rollups(programId)
    const parts: Record<keyof Counts, { live: number; test: number }> = {
      clicks: rolled.clicks,
      leads: this.split(customers, programId, ne(customers.status, 'provisional')),
      provisional_leads: this.split(customers, programId, eq(customers.status, 'provisional')),
      sales: rolled.sales,
      commissions: this.split(commissions, programId, eq(commissions.kind, 'commission')),
    }
    const side = (mode: 'live' | 'test') =>
      Object.fromEntries(Object.entries(parts).map(([name, split]) => [name, split[mode]])) as unknown as Counts
    return { live: side('live'), test: side('test') }
  }

  /** What the readiness checklist reads: the counts, active partner links and received processor events. */
  readinessFacts(programId: number): ReadinessFacts {
    const { db } = this.connection
    const fixtureLink = db
      .select({ id: testFixtures.linkId })
      .from(testFixtures)
      .where(and(eq(testFixtures.programId, programId), eq(testFixtures.linkId, links.id)))
    const activeLinks = db
      .select({ n: count() })
      .from(links)
      .where(and(eq(links.programId, programId), eq(links.active, true), isNotNull(links.partnerId), notExists(fixtureLink)))
      .get()!.n
    const events = db.select({ n: count() }).from(processorEvents).where(eq(processorEvents.programId, programId)).get()!.n
    return { counts: this.programCounts(programId), activeLinks, processorEvents: events, recentAddresses: this.recentAddresses(programId) }
  }

  /**
   * The addresses of the program's latest live clicks (at most 100), found among the server's
   * last 10,000 clicks: clicks have no index by program (issue 14), so the look stays bounded.
   */
  recentAddresses(programId: number): RecentAddresses {
    // Prepared with the first readiness read, then kept: the overview and readiness ask it often.
    this.latestIps ??= this.connection.client.prepare(
      `SELECT ip FROM (SELECT ip, program_id, test_mode FROM clicks ORDER BY id DESC LIMIT 10000)
       WHERE program_id = ? AND test_mode = 0 AND ip IS NOT NULL LIMIT 100`,
    )
    const rows = this.latestIps.all(programId) as { ip: string }[]
    const distinct = [...new Set(rows.map((r) => r.ip))].slice(0, 2)
    return { clicks: rows.length, distinct }
  }

  /** Clicks and sales of the program, from the rollups (a row per partner, day and mode). */
  private rollups(programId: number): { clicks: { live: number; test: number }; sales: { live: number; test: number } } {
    const rows = this.connection.db
      .select({ test: dailyCounts.testMode, clicks: sum(dailyCounts.clicks), sales: sum(dailyCounts.sales) })
      .from(dailyCounts)
      .where(eq(dailyCounts.programId, programId))
      .groupBy(dailyCounts.testMode)
      .all()
    const of = (test: boolean, kind: 'clicks' | 'sales') => Number(rows.find((r) => Boolean(r.test) === test)?.[kind] ?? 0)
    return { clicks: { live: of(false, 'clicks'), test: of(true, 'clicks') }, sales: { live: of(false, 'sales'), test: of(true, 'sales') } }
  }

  /** Rows of `table` for one program matching `where`, counted separately for test and live mode. */
  private split(table: ModeTable, programId: number, where?: SQL): { live: number; test: number } {
    const rows = this.connection.db
      .select({ test: table.testMode, n: count() })
      .from(table)
      .where(and(eq(table.programId, programId), where))
      .groupBy(table.testMode)
      .all() as { test: boolean; n: number }[]
    return { test: rows.find((r) => r.test)?.n ?? 0, live: rows.find((r) => !r.test)?.n ?? 0 }
  }
}
