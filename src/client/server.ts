// Server part of the client library (docs/api.md, Client library): reports leads, sales and
// refunds with the program API key. Methods resolve to results and never throw on HTTP errors.
import { postJson, type Result, type RequestOptions } from "./core"

export { readClickId, CLICK_COOKIE, type CookieSource } from "./cookie"
export type { Result, ApiError, ApiWarning } from "./core"

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
  /** Integer, smallest currency unit (cents). */
  amount: number
  /** Idempotency key, globally unique: retries and resends reuse it. */
  invoiceId: string
}

// The success bodies are the server's own schemas (type-only: nothing of the server is bundled).
import type { LeadData, RefundData, SaleData } from "../http/track-answers"
export type { LeadData, RefundData, SaleData }
/** A 409: the sale was already recorded under this invoiceId, which docs/errors.md says is success. */
export type DuplicateSale = { duplicate: true; sale_id?: number; transaction_id: string }

/** Client for the server-only tracking endpoints of one program. */
export class Svc {
  readonly #options: SvcOptions

  constructor(options: SvcOptions) {
    if (!options?.apiKey) throw new TypeError("Svc: apiKey is required")
    if (!options.baseUrl) throw new TypeError("Svc: baseUrl is required")
    this.#options = options
  }

  /** POST /api/v1/track/lead in server mode; a null clickId is left out of the body. */
  trackLead(input: TrackLeadInput): Promise<Result<LeadData>> {
    return this.#post<LeadData>("/api/v1/track/lead", {
      customer_key: input.customerExternalId,
      click_id: input.clickId ?? undefined,
      email: input.email,
      additional_data: input.additionalData,
    })
  }

  /** POST /api/v1/track/sale; retries keep the invoiceId, and a 409 resolves ok. */
  async trackSale(input: TrackSaleInput): Promise<Result<SaleData | DuplicateSale>> {
    const result = await this.#post<SaleData>("/api/v1/track/sale", {
      customer_key: input.customerExternalId,
      amount_cents: input.amount,
      transaction_id: input.invoiceId,
    })
    if (result.ok || result.status !== 409) return result
    const saleId = result.error.details?.sale_id
    const data: DuplicateSale = {
      duplicate: true,
      transaction_id: input.invoiceId,
      ...(typeof saleId === "number" ? { sale_id: saleId } : {}),
    }
    return { ok: true, status: 409, data, ...(result.warnings ? { warnings: result.warnings } : {}) }
  }

  /** POST /api/v1/track/refund for the sale recorded under invoiceId. */
  trackRefund(input: { invoiceId: string; reason?: "refund" | "chargeback"; refundReason?: string }) {
    return this.#post<RefundData>("/api/v1/track/refund", {
      transaction_id: input.invoiceId,
      reason: input.reason,
      refund_reason: input.refundReason,
    })
  }

  #post<T>(path: string, body: unknown): Promise<Result<T>> {
    const { apiKey, baseUrl, retries, maxDelayMs, fetch } = this.#options
    const options: RequestOptions = { apiKey, baseUrl, path, body, retries, maxDelayMs, fetch }
    return postJson<T>(options)
  }
}
