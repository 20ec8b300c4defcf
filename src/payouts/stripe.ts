/**
 * The Stripe Connect rail (docs/payouts.md): one transfer per payout to the partner's connected
 * account, `Idempotency-Key: svc-payout-<id>`; a transfer is final once made. Stripe keeps an
 * idempotency key for 24 hours (docs.stripe.com/api/idempotent_requests): before a resend older
 * than that, the transfer is looked up by its `transfer_group`. API: docs.stripe.com/api/transfers.
 */
import type { SendItem } from '../domain/payout-method.ts'
import { jsonOf, MISMATCH_CODE, mismatchOf, type Rail, type RailBatch, type SendAnswer, type Settled, timedFetch } from './rail.ts'

export interface StripeConfig {
  secretKey: string
  /** STRIPE_API_BASE: https://api.stripe.com unless a test or proxy says otherwise. */
  apiBase: string
}

const DAY_MS = 86_400_000

/** Currencies whose Stripe amount is not in ISO 4217 minor units (docs.stripe.com/currencies#special-cases): not paid by this rail. */
const STRIPE_SPECIAL = new Set(['ISK', 'HUF', 'TWD', 'UGX'])

/** Stripe's form encoding of a flat object (nested keys written as `metadata[svc_payout_id]`). */
export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

/** The headers of a Stripe API request with the platform's secret key, a form body, and `extra`. */
export const stripeHeaders = (config: StripeConfig, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${config.secretKey}`,
  'content-type': 'application/x-www-form-urlencoded',
  ...extra,
})

/** The Stripe rail over `config`. */
export function stripeRail(config: StripeConfig): Rail {
  const headers = (extra: Record<string, string> = {}) => stripeHeaders(config, extra)

  /**
   * The transfer already made for the payout, looked up by its transfer_group: another
   * installation's (its metadata svc_installation) is not this one's; one of this installation's
   * (or of none named, made before it was) settles the payout: paid when it matches, failed when not.
   */
  async function existingTransfer(batch: RailBatch): Promise<Settled | null> {
    const item = batch.items[0]!
    const response = await timedFetch(`${config.apiBase}/v1/transfers?transfer_group=payout_${item.payoutId}&limit=100`, {
      headers: headers(),
    })
    const answer = await jsonOf(response)
    if (!response.ok) throw new Error(`Stripe transfers: ${answer?.error?.message ?? response.status}`)
    const found: any[] = (Array.isArray(answer?.data) ? answer.data : []).filter(
      (t: any) =>
        typeof t?.id === 'string' &&
        (t.metadata?.svc_installation ?? batch.installation) === batch.installation &&
        (t.metadata?.svc_payout_id ?? String(item.payoutId)) === String(item.payoutId),
    )
    if (found.length === 0) return null
    const match = found.find((t) => transferMismatch(t, item, batch.currency) === null)
    return settledBy(match ?? found[0], item, batch.currency)
  }

  return {
    name: 'stripe',
    perRequest: 'payout',
    maxItems: 1,
    cannotPay: (currency) => (STRIPE_SPECIAL.has(currency) ? `Stripe counts ${currency} differently: pay it by hand` : null),
    keyOf: (items) => `svc-payout-${items[0]!.payoutId}`,

    async send(batch: RailBatch, now: number): Promise<SendAnswer> {
      const item = batch.items[0]!
      if (now - batch.recordedAt >= DAY_MS) {
        const found = await existingTransfer(batch)
        if (found) return { kind: 'accepted', providerId: 'paid' in found ? found.paid : null, settled: [found] }
      }
      const response = await timedFetch(`${config.apiBase}/v1/transfers`, {
        method: 'POST',
        headers: headers({ 'idempotency-key': batch.key }),
        body: form({
          amount: String(item.amountCents),
          currency: batch.currency.toLowerCase(),
          destination: item.receiver,
          transfer_group: `payout_${item.payoutId}`,
          'metadata[svc_payout_id]': String(item.payoutId),
          'metadata[svc_installation]': batch.installation,
        }),
      })
      const answer = await jsonOf(response)
      if (response.ok && typeof answer?.id === 'string') {
        // A replayed answer is the transfer first made with this key: paid only when it is this payout's.
        return { kind: 'accepted', providerId: answer.id, settled: [settledBy(answer, item, batch.currency)] }
      }
      if (response.ok) return { kind: 'retry', message: `Stripe answered ${response.status} without a transfer id` }
      const message = `${answer?.error?.code ?? answer?.error?.type ?? response.status}: ${answer?.error?.message ?? response.statusText}`
      // 409: the same key is in flight, or was used with other parameters; 429 and 5xx: try again, same key.
      if (response.status >= 500 || response.status === 409 || response.status === 429 || answer?.error?.type === 'idempotency_error')
        return { kind: 'retry', message }
      return { kind: 'rejected', code: String(answer?.error?.code ?? answer?.error?.type ?? response.status), message }
    },

    // A transfer is final when made: nothing is left to ask.
    status: async () => [],
  }
}

/** How a Stripe transfer differs from the payout it should carry (destination, amount, currency), or null. */
function transferMismatch(transfer: any, item: SendItem, currency: string): string | null {
  const destination = String(transfer?.destination ?? '')
  const amount = String(transfer?.amount ?? '')
  const theirCurrency = String(transfer?.currency ?? '')
  return mismatchOf([
    ['destination', destination, item.receiver, destination === item.receiver],
    ['amount', amount, String(item.amountCents), amount === String(item.amountCents)],
    ['currency', theirCurrency, currency.toLowerCase(), theirCurrency === currency.toLowerCase()],
  ])
}

/** The payout settled by a transfer Stripe has for it: paid when it carries the payout, failed when it does not. */
function settledBy(transfer: any, item: SendItem, currency: string): Settled {
  const mismatch = transferMismatch(transfer, item, currency)
  if (mismatch === null) return { payoutId: item.payoutId, paid: transfer.id }
  return { payoutId: item.payoutId, code: MISMATCH_CODE, failed: `Stripe transfer ${transfer?.id} does not match the payout: ${mismatch}` }
}
