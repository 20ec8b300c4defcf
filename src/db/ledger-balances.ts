// ledger_balances (tables/ledger.ts) as payouts move their entries between payout states.
import type { Connection } from './open.ts'

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
