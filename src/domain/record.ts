import { iso } from './time.ts'

/**
 * A stored row as the operator API (and the webhook events, which carry the same objects) shows it: snake_case keys, times (`…At`, epoch ms) as ISO 8601,
 * the row's id under `<name>_id`. The hash-chain links are the statements' (docs/ledger.md), not the rows', and
 * the keyed IP hashes of the fraud rules are the server's own.
 */
export function presentRow(name: string, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key in row) {
    if (hiddenColumns.has(key)) continue
    const value = row[key]
    if (key === 'id') out[`${name}_id`] = value
    else {
      const shown = shownKey(key)
      out[shown.name] = shown.time ? iso(value as number | null) : value
    }
  }
  return out
}

/** A column's name as shown, and whether it is a time: worked out once per column name (a few dozen), as every webhook event and API row presents rows. */
const shownKeys = new Map<string, { name: string; time: boolean }>()
function shownKey(key: string): { name: string; time: boolean } {
  let shown = shownKeys.get(key)
  if (!shown) {
    shown = { name: key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), time: key.endsWith('At') || key === 'rotateBy' }
    if (shownKeys.size < 1_000) shownKeys.set(key, shown)
  }
  return shown
}

/**
 * Never part of a row as the API shows it: the columns of a row's hash-chain link (docs/ledger.md),
 * a lead's IP as a keyed hash (the same_ip fraud signal's fact, docs/decisions.md), and the keys an
 * email is compared by (the email itself is shown).
 */
export const hiddenColumns: ReadonlySet<string> = new Set([
  'chainSeq',
  'chainHash',
  'cancelSeq',
  'cancelHash',
  'leadIpHash',
  'emailKey',
  'applicantKey',
  'lastAppliedAt',
  // A payout's send (src/payouts/send.ts): the rail's bookkeeping, not the payout's.
  'sendId',
])
