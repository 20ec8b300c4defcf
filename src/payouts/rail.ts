/**
 * A payout rail (docs/payouts.md, Where it lives): one provider that moves money,
 * behind `send(batch)` and `status(batch)`. The rails know their provider's API; the exactly-once
 * rule (record, send with a fixed key, resume after a crash) is src/payouts/send.ts's, once.
 */
import type { PayoutRail, SendItem } from '../domain/payout-method.ts'

/** One recorded send as a rail sees it; every field is the same on every attempt. */
export interface RailBatch {
  /** The idempotency key it was recorded with (PayPal's sender_batch_id and PayPal-Request-Id; Stripe's Idempotency-Key). */
  key: string
  currency: string
  items: SendItem[]
  /** The provider's id of the batch once known (PayPal's payout_batch_id); null before. */
  providerId: string | null
  /** When it was recorded (epoch ms): Stripe forgets an idempotency key after 24 hours. */
  recordedAt: number
  /** This database's installation id (docs/payouts.md, Two servers, one provider account). */
  installation: string
}

/** A payout's final word from the rail: paid with the provider's reference, or failed with its reason. */
export type Settled = { payoutId: number; paid: string } | { payoutId: number; failed: string; code: string }

/**
 * The rail's answer to a send:
 * - `accepted`: the provider has it (a duplicate answer of the same batch too); `settled` are the
 *   payouts already final (a Stripe transfer), the others are polled;
 * - `rejected`: the provider refused the whole request for good (its message): every payout failed;
 * - `retry`: no answer to rely on (5xx, a network error, a duplicate whose batch is not named):
 *   sent again later, with the same key.
 */
export type SendAnswer =
  | { kind: 'accepted'; providerId: string | null; settled: Settled[] }
  | { kind: 'rejected'; code: string; message: string }
  | { kind: 'retry'; message: string }

export interface Rail {
  readonly name: PayoutRail
  /** How the rail groups payouts into one request: PayPal one batch per currency, Stripe one transfer per payout. */
  readonly perRequest: 'currency' | 'payout'
  /** The most payouts one request carries (PayPal: 15,000 items). */
  readonly maxItems: number
  /** Why the rail cannot pay in `currency`, or null when it can. */
  cannotPay(currency: string): string | null
  /** The idempotency key of a request carrying these payouts: fixed by them and the installation, the same after any crash or restore. */
  keyOf(items: SendItem[], currency: string, installation: string): string
  /** Sends the batch (again, after a crash: same key, same body). Throws only for a network failure (then: retry). */
  send(batch: RailBatch, now: number): Promise<SendAnswer>
  /** The payouts of an accepted batch that are final now (the others stay processing). Throws when the provider cannot be read. */
  status(batch: RailBatch): Promise<Settled[]>
}

/** Reads a provider's JSON answer; null when it is not JSON. */
export async function jsonOf(response: Response): Promise<any> {
  const text = await response.text()
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return null
  }
}

/** A provider request that gives up after `ms` (a held request is retried later, with the same key). */
export function timedFetch(url: string, init: RequestInit, ms = 30_000): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ms) })
}

/** What the provider says it paid, field by field, against what the payout is: [field, theirs, ours, same]. */
export type Compared = [field: string, theirs: string, ours: string, same: boolean]

/**
 * Why the provider's item or transfer is not this payout's (`receiver x, not y; amount …`), or
 * null when receiver, amount and currency all match: only a match settles a payout as paid.
 */
export function mismatchOf(compared: Compared[]): string | null {
  const differ = compared.filter(([, , , same]) => !same)
  return differ.length ? differ.map(([field, theirs, ours]) => `${field} ${theirs}, not ${ours}`).join('; ') : null
}

/** The failure code of a payout whose provider record does not match it. */
export const MISMATCH_CODE = 'provider_mismatch'
