/**
 * The Stripe Connect rail (docs/payouts.md): one transfer per payout to the partner's connected
 * account, `Idempotency-Key: svc-payout-<id>`; a transfer is final once made. Stripe keeps an
 * idempotency key for 24 hours (docs.stripe.com/api/idempotent_requests): before a resend older
 * than that, the transfer is looked up by its `transfer_group`. API: docs.stripe.com/api/transfers.
 */
import { jsonOf, type Rail, type RailBatch, type SendAnswer, timedFetch } from './rail.ts'

export interface StripeConfig {
  secretKey: string
  /** STRIPE_API_BASE: https://api.stripe.com unless a test or proxy says otherwise. */
  apiBase: string
}

const DAY_MS = 86_400_000

/** Currencies whose Stripe amount is not in ISO 4217 minor units (docs.stripe.com/currencies#special-cases): not paid by this rail. */
const STRIPE_SPECIAL = new Set(['ISK', 'HUF', 'TWD', 'UGX'])

/** Stripe's form encoding of a flat object (nested keys written as `metadata[svc_payout_id]`). */
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

/** The Stripe rail over `config`. */
export function stripeRail(config: StripeConfig): Rail {
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${config.secretKey}`,
    'content-type': 'application/x-www-form-urlencoded',
    ...extra,
  })

  /** The transfer already made for the payout, looked up by its transfer_group; null when there is none. */
  async function existingTransfer(payoutId: number): Promise<string | null> {
    const response = await timedFetch(`${config.apiBase}/v1/transfers?transfer_group=payout_${payoutId}&limit=1`, { headers: headers() })
    const answer = await jsonOf(response)
    if (!response.ok) throw new Error(`Stripe transfers: ${answer?.error?.message ?? response.status}`)
    const found = Array.isArray(answer?.data) ? answer.data[0] : null
    return typeof found?.id === 'string' ? found.id : null
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
        const found = await existingTransfer(item.payoutId)
        if (found) return { kind: 'accepted', providerId: found, settled: [{ payoutId: item.payoutId, paid: found }] }
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
        }),
      })
      const answer = await jsonOf(response)
      if (response.ok && typeof answer?.id === 'string')
        return { kind: 'accepted', providerId: answer.id, settled: [{ payoutId: item.payoutId, paid: answer.id }] }
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
