import type { CountStore, ReadinessFacts } from './count-store.ts'
import type { Connection } from './open.ts'

// The figures of the dashboard and the partner portal: funnels, money and per-day points read from
// the rollups daily_counts and daily_money (kept in each write's transaction: triggers, migration
// 0005, and the tracking store for clicks, migration 0012), so that a page never counts a million rows.

export const DAY_MS = 86_400_000

export interface Funnel {
  clicks: number
  /** Clicks that were the first of their IP on their link in their hour (daily_counts.unique_clicks). */
  uniqueClicks: number
  leads: number
  customers: number
  sales: number
}

export interface Money {
  currency: string
  revenueCents: number
  refundedCents: number
  commissionCents: number
}

export interface DayPoint extends Funnel {
  day: number
  /** Revenue per currency that day. */
  revenue: Record<string, number>
}

export interface PartnerFigures extends Funnel {
  partnerId: number
  money: Money[]
}

function prepare({ client }: Connection) {
  const q = (sql: string) => client.prepare(sql)
  const sumCounts =
    'coalesce(sum(clicks), 0) AS clicks, coalesce(sum(unique_clicks), 0) AS uniqueClicks, coalesce(sum(leads), 0) AS leads, coalesce(sum(customers), 0) AS customers, coalesce(sum(sales), 0) AS sales'
  const sumMoney = 'sum(revenue_cents) AS revenueCents, sum(refunded_cents) AS refundedCents, sum(commission_cents) AS commissionCents'
  return {
    funnel: q(`SELECT ${sumCounts} FROM daily_counts WHERE program_id = ? AND test_mode = ?`),
    money: q(`SELECT currency, ${sumMoney} FROM daily_money WHERE program_id = ? AND test_mode = 0 GROUP BY currency ORDER BY currency`),
    days: q(`SELECT day, ${sumCounts} FROM daily_counts WHERE program_id = ? AND test_mode = 0 AND day >= ? GROUP BY day`),
    dayMoney: q(
      'SELECT day, currency, sum(revenue_cents) AS cents FROM daily_money WHERE program_id = ? AND test_mode = 0 AND day >= ? GROUP BY day, currency',
    ),
    partnerCounts: q(
      `SELECT partner_id AS partnerId, ${sumCounts} FROM daily_counts WHERE program_id = ? AND test_mode = 0 GROUP BY partner_id`,
    ),
    partnerMoney: q(
      `SELECT partner_id AS partnerId, currency, ${sumMoney} FROM daily_money WHERE program_id = ? AND test_mode = 0 GROUP BY partner_id, currency`,
    ),
    oneCounts: q(`SELECT ${sumCounts} FROM daily_counts WHERE program_id = ? AND partner_id = ? AND test_mode = 0`),
    oneMoney: q(
      `SELECT currency, ${sumMoney} FROM daily_money WHERE program_id = ? AND partner_id = ? AND test_mode = 0 GROUP BY currency ORDER BY currency`,
    ),
    // Per partner group (docs/decisions.md, Groups): the partners' rows added up by their group now (0: none).
    groupDays: q(`SELECT coalesce(p.group_id, 0) AS groupId, d.day, sum(d.clicks) AS clicks, sum(d.sales) AS sales
      FROM daily_counts d JOIN partners p ON p.id = d.partner_id
      WHERE d.program_id = ? AND d.test_mode = 0 AND d.day >= ? GROUP BY 1, 2`),
    provisional: q("SELECT count(*) AS n FROM customers WHERE program_id = ? AND status = 'provisional' AND test_mode = 0"),
    anyEvent: q('SELECT count(*) AS n FROM (SELECT 1 FROM processor_events WHERE program_id = ? LIMIT 1)'),
    activeLinks: q(`SELECT count(*) AS n FROM links l WHERE l.program_id = ?1 AND l.active = 1 AND l.partner_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM test_fixtures f WHERE f.program_id = ?1 AND f.link_id = l.id)`),
  }
}

/** The figures of a program and its partners, from the rollups. */
export class FigureStore {
  private readonly s

  constructor(
    connection: Connection,
    private readonly counts: Pick<CountStore, 'recentAddresses'>,
  ) {
    this.s = prepare(connection)
  }

  /** Live funnel totals of a program (test-mode with `testMode`). */
  programFunnel(programId: number, testMode = false): Funnel {
    return this.s.funnel.get(programId, testMode ? 1 : 0) as Funnel
  }

  /** Live revenue, refunds and net commissions of a program, per currency. */
  programMoney(programId: number): Money[] {
    return this.s.money.all(programId) as Money[]
  }

  /** One point per UTC day of the last `days` days up to `now` (missing days are zeros), oldest first. */
  programDays(programId: number, now: number, days: number): DayPoint[] {
    const today = Math.floor(now / DAY_MS)
    const first = today - days + 1
    const points = new Map<number, DayPoint>()
    for (let day = first; day <= today; day++)
      points.set(day, { day, clicks: 0, uniqueClicks: 0, leads: 0, customers: 0, sales: 0, revenue: {} })
    for (const row of this.s.days.all(programId, first) as (Funnel & { day: number })[]) {
      const point = points.get(row.day)
      if (point) Object.assign(point, row, { revenue: point.revenue })
    }
    for (const row of this.s.dayMoney.all(programId, first) as { day: number; currency: string; cents: number }[]) {
      const point = points.get(row.day)
      if (point) point.revenue[row.currency] = row.cents
    }
    return [...points.values()]
  }

  /**
   * Clicks and sales per UTC day of the last `days` days, for each partner group that had some (key 0: the
   * partners in no group), oldest first; a partner's figures count for the group it is in now.
   */
  groupDays(programId: number, now: number, days: number): Map<number, { day: number; clicks: number; sales: number }[]> {
    const first = Math.floor(now / DAY_MS) - days + 1
    const out = new Map<number, { day: number; clicks: number; sales: number }[]>()
    for (const row of this.s.groupDays.all(programId, first) as { groupId: number; day: number; clicks: number; sales: number }[]) {
      let points = out.get(row.groupId)
      if (!points) out.set(row.groupId, (points = Array.from({ length: days }, (_, i) => ({ day: first + i, clicks: 0, sales: 0 }))))
      const point = points[row.day - first]
      if (point) Object.assign(point, { clicks: row.clicks, sales: row.sales })
    }
    return out
  }

  /** Per-partner live figures of a program, keyed by partner id (0: unattributed). */
  partnerFigures(programId: number): Map<number, PartnerFigures> {
    const out = new Map<number, PartnerFigures>()
    const get = (partnerId: number) => {
      let f = out.get(partnerId)
      if (!f) out.set(partnerId, (f = { partnerId, clicks: 0, uniqueClicks: 0, leads: 0, customers: 0, sales: 0, money: [] }))
      return f
    }
    for (const row of this.s.partnerCounts.all(programId) as (Funnel & { partnerId: number })[])
      Object.assign(get(row.partnerId), row, { money: [] })
    for (const row of this.s.partnerMoney.all(programId) as (Money & { partnerId: number })[]) {
      const { partnerId, ...money } = row
      get(partnerId).money.push(money)
    }
    return out
  }

  /** One partner's live figures. */
  onePartnerFigures(programId: number, partnerId: number): { funnel: Funnel; money: Money[] } {
    return { funnel: this.s.oneCounts.get(programId, partnerId) as Funnel, money: this.s.oneMoney.all(programId, partnerId) as Money[] }
  }

  /**
   * The facts of the readiness checklist, from the rollups instead of readiness-store's counts
   * over every click (a page must answer in milliseconds with a million of them).
   */
  dashboardReadinessFacts(programId: number): ReadinessFacts {
    const live = this.programFunnel(programId)
    const test = this.programFunnel(programId, true)
    const n = (statement: 'provisional' | 'anyEvent' | 'activeLinks') => (this.s[statement].get(programId) as { n: number }).n
    // The checklist reads no commissions: the rollups keep none per mode.
    return {
      activeLinks: n('activeLinks'),
      counts: {
        // Only read when it matters: the first_lead message names provisional leads when no lead counts.
        live: {
          clicks: live.clicks,
          leads: live.leads,
          sales: live.sales,
          provisional_leads: live.leads === 0 ? n('provisional') : 0,
          commissions: 0,
        },
        test: { clicks: test.clicks, leads: test.leads, sales: test.sales, provisional_leads: 0, commissions: 0 },
      },
      processorEvents: n('anyEvent'),
      recentAddresses: this.counts.recentAddresses(programId),
    }
  }
}
