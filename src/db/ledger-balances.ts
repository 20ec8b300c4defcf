// ledger_balances (tables/ledger.ts): kept as payouts move their entries between payout states,
// and read for who is owed what and when (the Payouts page, the portal).
import { and, eq, gte, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { LedgerGroup, PayoutState } from '../domain/payout.ts'
import type { Connection } from './open.ts'
import { commissions, ledgerBalances, payoutEntries } from './schema.ts'

const DAY_MS = 86_400_000
/** An entry's pair (a commission's reversal, a reversal's commission), and the payouts each is in. */
export const pair = alias(commissions, 'pair')
const entryPayout = alias(payoutEntries, 'entry_payout')
const pairPayout = alias(payoutEntries, 'pair_payout')
export const notHeld = sql`${commissions.review} is not 'held'`

const BALANCE_KEY = 'program_id, partner_id, currency, kind, payout, pair, held, day'
/**
 * Keeps ledger_balances (schema.ts) when the entries of one payout (?1) have changed payout state from ?2 to ?3
 * ('' for none: '' to 'pending' in a run, 'pending' to 'paid' or '' when it is paid or canceled). Each entry
 * leaves the row of its old payout state for that of its new one; so does the entry it pairs with, whose pair
 * state changes. The entry and its pair are never in the same payout (a run pays entries due, and an entry is
 * due only when its pair is in a payout or missing), so the pair's own payout state is read as it is. Neither
 * is held for review (a held commission is in no payout, and its reversal nets with it), so both are in rows
 * of held = 0. Both sides are added up by row before they are written. (A new ledger entry is added by the trigger of migrations 0009, 0018 and 0024; each row's day is the day it is due.)
 */
const MOVE_BALANCES = `WITH facts AS MATERIALIZED (
    SELECT c.program_id, c.partner_id, c.currency, c.kind, c.due_at / 86400000 AS day,
      CASE WHEN o.id IS NULL THEN 'none' ELSE coalesce(op.status, '') END AS pair, sum(c.amount_cents) AS amount_cents, count(*) AS n,
      o.partner_id AS o_partner_id, o.currency AS o_currency, o.kind AS o_kind, o.due_at / 86400000 AS o_day, o.test_mode AS o_test,
      coalesce(op.status, '') AS o_payout, sum(o.amount_cents) AS o_amount_cents, count(o.id) AS o_n
    FROM payout_entries m JOIN commissions c ON c.id = m.ledger_entry_id
      LEFT JOIN commissions o ON o.sale_id = c.sale_id AND o.kind <> c.kind
      LEFT JOIN payout_entries op ON op.ledger_entry_id = o.id AND op.status <> 'canceled'
    WHERE m.payout_id = ?1 AND c.test_mode = 0 GROUP BY 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14),
  sides AS (
    SELECT program_id, partner_id, currency, kind, day, -amount_cents AS amount_cents, -n AS n, ?2 AS payout, pair FROM facts
    UNION ALL SELECT program_id, partner_id, currency, kind, day, amount_cents, n, ?3, pair FROM facts
    UNION ALL SELECT program_id, o_partner_id, o_currency, o_kind, o_day, -o_amount_cents, -o_n, o_payout, ?2 FROM facts WHERE o_n > 0 AND o_test = 0
    UNION ALL SELECT program_id, o_partner_id, o_currency, o_kind, o_day, o_amount_cents, o_n, o_payout, ?3 FROM facts WHERE o_n > 0 AND o_test = 0)
INSERT INTO ledger_balances (${BALANCE_KEY}, amount_cents, entries)
  SELECT program_id, partner_id, currency, kind, payout, pair, 0, CASE WHEN payout = '' AND pair <> '' THEN day ELSE -1 END,
    sum(amount_cents), sum(n) FROM sides WHERE true GROUP BY 1, 2, 3, 4, 5, 6, 8 HAVING sum(n) <> 0 OR sum(amount_cents) <> 0
  ON CONFLICT (${BALANCE_KEY}) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents, entries = entries + excluded.entries`
// Only the payout's partner's rows: a payout moves its partner's entries and their pairs (the same
// sales', booked for the same partner). Scoped by program alone, each payout read every row of the
// program's balances, and an import of 10,000 paid payouts spent minutes here (issue 38).
const DROP_EMPTY_BALANCES =
  'DELETE FROM ledger_balances WHERE entries = 0 AND (program_id, partner_id) = (SELECT program_id, partner_id FROM payouts WHERE id = ?)'

/** The payout state an entry row of ledger_balances carries: '' for none. */
export type BalanceState = '' | 'pending' | 'paid'

/** Prepares the two statements once; the function moves one payout's entries from `before` to `after`. */
export function balanceMover(connection: Connection): (payoutId: number, before: BalanceState, after: BalanceState) => void {
  const move = connection.client.prepare(MOVE_BALANCES)
  const dropEmpty = connection.client.prepare(DROP_EMPTY_BALANCES)
  return (payoutId, before, after) => {
    move.run(payoutId, before, after)
    dropEmpty.run(payoutId)
  }
}

/** Reads of ledger_balances, with the entries of the day being split one by one. */
export class LedgerBalanceStore {
  constructor(private readonly connection: Connection) {}

  /**
   * The first day (days since 1970, UTC) on which each partner's open commissions and bonuses not yet due become
   * due, per currency. `cutoffDay` is today: the first day not wholly due.
   */
  firstPendingDays(programId: number, now: number): { partnerId: number; currency: string; day: number }[] {
    const { db } = this.connection
    const today = Math.floor(now / DAY_MS)
    // Days after today from the balances; today's rows hold entries due already (earlier today) and
    // entries still pending (later today): those are read one by one, as ledgerGroups splits them.
    const later = db
      .select({ partnerId: ledgerBalances.partnerId, currency: ledgerBalances.currency, day: sql<number>`min(${ledgerBalances.day})` })
      .from(ledgerBalances)
      .where(
        and(
          eq(ledgerBalances.programId, programId),
          ne(ledgerBalances.kind, 'reversal'),
          eq(ledgerBalances.held, 0),
          sql`${ledgerBalances.day} > ${today}`,
        ),
      )
      .groupBy(ledgerBalances.partnerId, ledgerBalances.currency)
      .all()
    const laterToday = db
      .selectDistinct({ partnerId: commissions.partnerId, currency: commissions.currency })
      .from(commissions)
      .where(
        and(
          eq(commissions.programId, programId),
          ne(commissions.kind, 'reversal'),
          eq(commissions.testMode, false),
          notHeld,
          sql`${commissions.dueAt} > ${now} AND ${commissions.dueAt} < ${(today + 1) * DAY_MS}`,
        ),
      )
      .all()
    const first = new Map(later.map((row) => [`${row.partnerId} ${row.currency}`, row]))
    for (const row of laterToday) first.set(`${row.partnerId} ${row.currency}`, { ...row, day: today })
    return [...first.values()]
  }

  /**
   * The live ledger of a program (or of one partner, or a page of partners) added up by partner, currency, kind,
   * payout facts and dueness at `now`: what domain/payout.ts `balances` needs. Read from ledger_balances (kept by
   * triggers, schema.ts): its open rows carry the day they are due (each entry's due_at, fixed when booked), so a
   * day before today is due and one after it is not; only the open entries due today are read one by one (the
   * program's due_at index), to split them exactly.
   */
  ledgerGroups(programId: number, now: number, partnerId?: number | number[]): LedgerGroup[] {
    const { db } = this.connection
    const today = Math.floor(now / DAY_MS)
    const cutoffDay = sql`${today}`
    const partnerWhere = (column: SQLiteColumn) =>
      partnerId === undefined
        ? undefined
        : Array.isArray(partnerId)
          ? inArray(column, partnerId.length ? partnerId : [0])
          : eq(column, partnerId)
    const due = sql<number>`${ledgerBalances.day} >= 0 and ${ledgerBalances.day} < ${cutoffDay}`
    const counted = db
      .select({
        partnerId: ledgerBalances.partnerId,
        currency: ledgerBalances.currency,
        kind: ledgerBalances.kind,
        payout: ledgerBalances.payout,
        pair: ledgerBalances.pair,
        held: ledgerBalances.held,
        due,
        amountCents: sql<number>`sum(${ledgerBalances.amountCents})`,
      })
      .from(ledgerBalances)
      .where(
        and(
          eq(ledgerBalances.programId, programId),
          partnerWhere(ledgerBalances.partnerId),
          sql`(${ledgerBalances.day} < 0 or ${ledgerBalances.day} <> ${cutoffDay})`,
        ),
      )
      .groupBy(
        ledgerBalances.partnerId,
        ledgerBalances.currency,
        ledgerBalances.kind,
        ledgerBalances.payout,
        ledgerBalances.pair,
        ledgerBalances.held,
        due,
      )
      .all()
      .map(
        (r): LedgerGroup => ({
          partnerId: r.partnerId,
          currency: r.currency,
          kind: r.kind,
          payout: r.payout === '' ? null : r.payout,
          pair: r.pair === 'none' ? null : { payout: r.pair === '' ? null : r.pair },
          held: r.held === 1,
          due: Boolean(r.due),
          amountCents: r.amountCents,
        }),
      )
    const boundary = this.scannedGroups(
      programId,
      now,
      and(
        partnerWhere(commissions.partnerId),
        gte(commissions.dueAt, today * DAY_MS),
        lt(commissions.dueAt, (today + 1) * DAY_MS),
        isNull(entryPayout.id),
        or(isNull(pair.id), sql`${pairPayout.id} is not null`),
        // A held entry's rows carry day -1: the counted rows hold it already.
        notHeld,
      ),
    )
    return [...counted, ...boundary]
  }

  /** ledgerGroups read entry by entry (the live entries of the program matching `where`). */
  private scannedGroups(programId: number, now: number, where: SQL | undefined): LedgerGroup[] {
    const { db } = this.connection
    const paired = sql<number>`${pair.id} is not null`
    const due = sql<number>`${commissions.dueAt} <= ${now}`
    const rows = db
      .select({
        partnerId: commissions.partnerId,
        currency: commissions.currency,
        kind: commissions.kind,
        payout: entryPayout.status,
        paired,
        pairPayout: pairPayout.status,
        due,
        amountCents: sql<number>`sum(${commissions.amountCents})`,
      })
      .from(commissions)
      .leftJoin(pair, and(eq(pair.saleId, commissions.saleId), ne(pair.kind, commissions.kind)))
      .leftJoin(entryPayout, and(eq(entryPayout.ledgerEntryId, commissions.id), ne(entryPayout.status, 'canceled')))
      .leftJoin(pairPayout, and(eq(pairPayout.ledgerEntryId, pair.id), ne(pairPayout.status, 'canceled')))
      .where(and(eq(commissions.programId, programId), eq(commissions.testMode, false), where))
      .groupBy(commissions.partnerId, commissions.currency, commissions.kind, entryPayout.status, paired, pairPayout.status, due)
      .all()
    return rows.map((r) => ({
      partnerId: r.partnerId,
      currency: r.currency,
      kind: r.kind,
      payout: r.payout as PayoutState,
      pair: r.paired ? { payout: r.pairPayout as PayoutState } : null,
      held: false,
      due: Boolean(r.due),
      amountCents: r.amountCents,
    }))
  }
}
