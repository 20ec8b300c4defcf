// Server part of the client library (docs/api.md, Client library): reports leads, sales and
// refunds with the program API key. Methods resolve to results and never throw on HTTP errors.
import type { Currency, DiscountData, LeadData, Provider, RefundData, SaleData } from './answers.js'
import { postJson, type Result, type RequestOptions } from './core.js'

export { readClickId, CLICK_COOKIE, type CookieSource } from './cookie.js'
export type { Result, ApiError, ApiWarning } from './core.js'
export type { Currency, DiscountData, LeadData, Provider, RefundData, SaleData }

export type SvcOptions = {
  /** Program API key, sent as `Authorization: Bearer <key>`. */
  apiKey: string
  /** {base_url} of the service, e.g. "https://svc.example.com". */
  baseUrl: string
  /** Extra attempts for 429, 5xx and network errors. Default 2. */
  retries?: number
  /** Longest Retry-After worth waiting inside a request handler. Default 10 s. */
  maxDelayMs?: number
  fetch?: typeof fetch
}

export type TrackLeadInput = {
  /** Your stable customer id; the same value must reach trackSale. */
  customerExternalId: string
  /** From the browser (svc.getClickId()) or readClickId(request); null when there is none. */
  clickId: string | null
  email?: string
  additionalData?: Record<string, unknown>
}

export type TrackSaleInput = {
  customerExternalId: string
  /** Integer, smallest currency unit (cents; VND has none). */
  amount: number
  /** Idempotency key, globally unique: retries and resends reuse it. */
  invoiceId: string
  /**
   * USD (the default), or another of the program's currencies (USD, EUR and VND unless its owner
   * listed others, such as GBP or JPY: ISO 4217 codes); lower case is accepted here and sent in
   * capitals. One the program does not list answers 422 unsupported_currency.
   */
  currency?: Currency | Lowercase<Currency> | (string & {})
  /** When the payment happened (ISO 8601 with offset, or a Date): at most 30 days old, 5 minutes ahead. Default: now. */
  occurredAt?: string | Date
  provider?: Provider
  /** The processor's own id of the payment, 1 to 255 characters. */
  providerPaymentId?: string
  /** false marks the sale as test data (never counted as live, never paid). */
  livemode?: boolean
  /** The click id, for a customer the service has not seen at signup. */
  clickId?: string | null
  /** A partner's coupon code the customer used (any case): attributes a customer who has no partner yet. */
  couponCode?: string | null
}

export type TrackRefundInput = {
  /** The invoiceId of the sale being refunded. */
  invoiceId: string
  reason?: 'refund' | 'chargeback'
  refundReason?: string
}

/** Who to ask about: the visitor's click id (cookie svc_click_id), or your customer id. One is enough. */
export type GetDiscountInput = { clickId?: string | null; customerExternalId?: string | null }

/** A 409: the sale was already recorded under this invoiceId, which docs/errors.md says is success. */
export type DuplicateSale = { duplicate: true; sale_id?: number; transaction_id: string }

/** Client for the server-only tracking endpoints of one program. */
export class Svc {
  readonly #options: SvcOptions

  constructor(options: SvcOptions) {
    if (!options?.apiKey) throw new TypeError('Svc: apiKey is required')
    if (!options.baseUrl) throw new TypeError('Svc: baseUrl is required')
    this.#options = options
  }

  /** POST /api/v1/track/lead in server mode; a null clickId is left out of the body. */
  trackLead(input: TrackLeadInput): Promise<Result<LeadData>> {
    return this.#post<LeadData>('/api/v1/track/lead', {
      customer_key: input.customerExternalId,
      click_id: input.clickId ?? undefined,
      email: input.email,
      additional_data: input.additionalData,
    })
  }

  /** POST /api/v1/track/sale; retries keep the invoiceId, and a 409 resolves ok. */
  async trackSale(input: TrackSaleInput): Promise<Result<SaleData | DuplicateSale>> {
    const { occurredAt } = input
    const result = await this.#post<SaleData>('/api/v1/track/sale', {
      customer_key: input.customerExternalId,
      amount_cents: input.amount,
      transaction_id: input.invoiceId,
      currency: input.currency?.toUpperCase(),
      occurred_at: occurredAt instanceof Date ? occurredAt.toISOString() : occurredAt,
      provider: input.provider,
      provider_payment_id: input.providerPaymentId,
      livemode: input.livemode,
      click_id: input.clickId ?? undefined,
      coupon_code: input.couponCode ?? undefined,
    })
    if (result.ok || result.status !== 409) return result
    const saleId = result.error.details?.sale_id
    const data: DuplicateSale = {
      duplicate: true,
      transaction_id: input.invoiceId,
      ...(typeof saleId === 'number' ? { sale_id: saleId } : {}),
    }
    return { ok: true, status: 409, data, ...(result.warnings ? { warnings: result.warnings } : {}) }
  }

  /** POST /api/v1/track/refund for the sale recorded under invoiceId. */
  trackRefund(input: TrackRefundInput): Promise<Result<RefundData>> {
    return this.#post<RefundData>('/api/v1/track/refund', {
      transaction_id: input.invoiceId,
      reason: input.reason,
      refund_reason: input.refundReason,
    })
  }

  /**
   * GET /api/v1/programs/me/discount: the discount the visitor gets through their partner's group,
   * `data.discount` null when none. Pass `data.discount.coupon_id` to Stripe Checkout as
   * `discounts: [{ coupon }]` (or to your processor's coupon field).
   */
  getDiscount(input: GetDiscountInput): Promise<Result<DiscountData>> {
    const query = new URLSearchParams()
    if (input.clickId) query.set('click_id', input.clickId)
    if (input.customerExternalId) query.set('customer_key', input.customerExternalId)
    const { apiKey, baseUrl, retries, maxDelayMs, fetch } = this.#options
    const path = `/api/v1/programs/me/discount?${query.toString()}`
    return postJson<DiscountData>({ apiKey, baseUrl, path, body: undefined, method: 'GET', retries, maxDelayMs, fetch })
  }

  #post<T>(path: string, body: unknown): Promise<Result<T>> {
    const { apiKey, baseUrl, retries, maxDelayMs, fetch } = this.#options
    const options: RequestOptions = { apiKey, baseUrl, path, body, retries, maxDelayMs, fetch }
    return postJson<T>(options)
  }
}
