/**
 * The PayPal Payouts rail (docs/payouts.md): OAuth2 client credentials, one batch per currency,
 * `sender_batch_id` and `PayPal-Request-Id` both the send's fixed key, items polled until final.
 * API: developer.paypal.com/api/payments.payouts-batch/v1 (POST /v1/payments/payouts, GET
 * /v1/payments/payouts/{payout_batch_id}); token: developer.paypal.com/api/rest/authentication.
 */
import { createHash } from 'node:crypto'
import { formatAmount } from '../domain/payout.ts'
import type { SendItem } from '../domain/payout-method.ts'
import { jsonOf, MISMATCH_CODE, mismatchOf, type Rail, type RailBatch, type SendAnswer, type Settled, timedFetch } from './rail.ts'

export interface PayPalConfig {
  clientId: string
  clientSecret: string
  /** PAYPAL_API_BASE: https://api-m.paypal.com, or https://api-m.sandbox.paypal.com first. */
  apiBase: string
}

/** The currencies PayPal pays out (developer.paypal.com/reference/currency-codes). */
export const PAYPAL_CURRENCIES: ReadonlySet<string> = new Set(
  'AUD BRL CAD CNY CZK DKK EUR HKD HUF ILS JPY MYR MXN TWD NZD NOK PHP PLN GBP SGD SEK CHF THB USD'.split(' '),
)

/** Item statuses that end a payout as failed; SUCCESS pays it; the others (UNCLAIMED, PENDING, ONHOLD…) keep it processing. */
const FAILED = new Set(['FAILED', 'RETURNED', 'BLOCKED', 'REFUNDED', 'REVERSED'])

const PAGE_SIZE = 1000

/** The PayPal rail over `config` (its access token kept in memory until it expires). */
export function paypalRail(config: PayPalConfig): Rail {
  let token: { value: string; until: number } | null = null

  /** An access token (cached until a minute before it expires). */
  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value
    const response = await timedFetch(`${config.apiBase}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${config.clientId}:${config.clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    })
    const body = await jsonOf(response)
    if (!response.ok || typeof body?.access_token !== 'string')
      throw new Error(`PayPal token: ${response.status} ${body?.error_description ?? body?.error ?? ''}`.trim())
    token = { value: body.access_token, until: Date.now() + Math.max(0, (Number(body.expires_in) || 0) - 60) * 1000 }
    return token.value
  }

  const authorized = async (init: RequestInit & { headers?: Record<string, string> }) => ({
    ...init,
    headers: { ...init.headers, authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
  })

  return {
    name: 'paypal',
    perRequest: 'currency',
    maxItems: 15_000,
    cannotPay: (currency) => (PAYPAL_CURRENCIES.has(currency) ? null : `PayPal cannot pay in ${currency}`),
    // Fixed by the payouts it carries and by the installation (kept in the database): the same set
    // makes the same key after a crash or a restore; another database's payout 1 never meets it.
    keyOf: (items, currency, installation) =>
      `svc-${installation}-${currency}-${items[0]!.payoutId}-${createHash('sha256')
        .update(items.map((i) => i.payoutId).join(','))
        .digest('hex')
        .slice(0, 16)}`,

    async send(batch: RailBatch): Promise<SendAnswer> {
      const body = {
        sender_batch_header: {
          sender_batch_id: batch.key,
          recipient_type: 'EMAIL',
          email_subject: 'You have a payout',
        },
        items: batch.items.map((item) => ({
          recipient_type: 'EMAIL',
          amount: { value: formatAmount(item.amountCents, batch.currency), currency: batch.currency },
          receiver: item.receiver,
          sender_item_id: `payout_${item.payoutId}`,
          note: `Payout ${item.payoutId}`,
        })),
      }
      const response = await timedFetch(
        `${config.apiBase}/v1/payments/payouts`,
        await authorized({ method: 'POST', headers: { 'paypal-request-id': batch.key }, body: JSON.stringify(body) }),
      )
      const answer = await jsonOf(response)
      const batchId = answer?.batch_header?.payout_batch_id
      if (response.ok && typeof batchId === 'string') return { kind: 'accepted', providerId: batchId, settled: [] }
      // A success without a batch id says nothing to rely on: asked again, same key.
      if (response.ok) return { kind: 'retry', message: `PayPal answered ${response.status} without a payout_batch_id` }
      if (response.status === 401) token = null
      // A sender_batch_id used before (the request id forgotten): PayPal links the original batch. Never a failure.
      const linked = duplicateBatchId(answer)
      if (linked) return { kind: 'accepted', providerId: linked, settled: [] }
      const message = `${answer?.name ?? response.status}: ${answer?.message ?? response.statusText}`
      if (response.status >= 500 || response.status === 401 || response.status === 429 || isDuplicate(answer))
        return { kind: 'retry', message }
      return { kind: 'rejected', code: String(answer?.name ?? response.status), message }
    },

    async status(batch: RailBatch): Promise<Settled[]> {
      const settled: Settled[] = []
      for (let page = 1; ; page++) {
        const response = await timedFetch(
          `${config.apiBase}/v1/payments/payouts/${encodeURIComponent(batch.providerId!)}?page=${page}&page_size=${PAGE_SIZE}`,
          await authorized({ method: 'GET' }),
        )
        const answer = await jsonOf(response)
        if (!response.ok) {
          if (response.status === 401) token = null
          throw new Error(`PayPal batch ${batch.providerId}: ${answer?.name ?? response.status} ${answer?.message ?? ''}`.trim())
        }
        const items: any[] = Array.isArray(answer?.items) ? answer.items : []
        for (const item of items) {
          const payoutId = Number(String(item?.payout_item?.sender_item_id ?? '').replace(/^payout_/, ''))
          const ours = batch.items.find((i) => i.payoutId === payoutId)
          if (!ours) continue
          const status = String(item.transaction_status ?? '')
          // Only the item made of this payout settles it: another server's batch (or an old one
          // PayPal links a reused key to) may name the same payout_<id> for someone else.
          const mismatch = itemMismatch(item?.payout_item, ours, batch.currency)
          if (mismatch)
            settled.push({ payoutId, code: MISMATCH_CODE, failed: `PayPal item payout_${payoutId} does not match the payout: ${mismatch}` })
          else if (status === 'SUCCESS') settled.push({ payoutId, paid: String(item.payout_item_id) })
          else if (FAILED.has(status))
            settled.push({
              payoutId,
              code: String(item.errors?.name ?? status),
              failed: `PayPal ${status}${item.errors?.message ? `: ${item.errors.message}` : ''}`,
            })
        }
        if (items.length < PAGE_SIZE) return settled
      }
    },
  }
}

/** How PayPal's `payout_item` differs from the payout it should carry (receiver, amount, currency), or null. */
function itemMismatch(item: any, ours: SendItem, currency: string): string | null {
  const receiver = String(item?.receiver ?? '')
  const value = String(item?.amount?.value ?? '')
  const expected = formatAmount(ours.amountCents, currency)
  const theirCurrency = String(item?.amount?.currency ?? '')
  return mismatchOf([
    ['receiver', receiver, ours.receiver, receiver.toLowerCase() === ours.receiver.toLowerCase()],
    ['amount', value, expected, value !== '' && Number(value) === Number(expected)],
    ['currency', theirCurrency, currency, theirCurrency === currency],
  ])
}

/** Whether an error answer is PayPal's duplicate-batch refusal. */
function isDuplicate(answer: any): boolean {
  const text = JSON.stringify(answer ?? '')
  return /DUPLICATE|already (been )?used|already exists/i.test(text)
}

/** The payout_batch_id of the original batch a duplicate-batch refusal links to (its HATEOAS link), or null. */
function duplicateBatchId(answer: any): string | null {
  if (!isDuplicate(answer) || !Array.isArray(answer?.links)) return null
  for (const link of answer.links) {
    const match = /\/v1\/payments\/payouts\/([^/?#]+)/.exec(String(link?.href ?? ''))
    if (match) return decodeURIComponent(match[1]!)
  }
  return null
}
