// One interface for every tool an import reads (README, Architecture): a
// source is its address, its credentials and the steps it reads page by page, each page turned
// into rows in svc's words. The HTTP rules (pages, backing off on 429, the source's own error
// words) are written once here; rewardful.ts, tolt.ts, firstpromoter.ts and partnerstack.ts
// say only what differs.
import type { ImportKind, ImportSource, ImportedState, PartnerStatusWord } from '../domain/imports.ts'
import { AttemptError } from '../outbox/webhooks/target.ts'
import { RefusedRequest, type SourceAnswer, sourceGet } from './source-get.ts'

/** What the import's request gave for the source. */
export interface SourceOptions {
  apiKey: string
  baseUrl: string
  sourceProgramId: string | null
  accountId: string | null
}

export interface PartnerData {
  name: string | null
  email: string | null
  status: PartnerStatusWord
  paypalEmail: string | null
  createdAt: number
}
export interface LinkData {
  partner: string
  token: string
  /** The query parameter the link travels by, when the source names one per link (Tolt). */
  param?: string
}
export interface CouponData {
  partner: string
  code: string
  promotionCode: string | null
}
export interface CustomerData {
  partner: string
  key: string
  email: string | null
  converted: boolean
}
export interface CommissionData {
  partner: string
  /** The customer's key when the row names it, or the source id of a customer read before (`customerRef`). */
  customerKey: string | null
  customerRef?: string | null
  state: ImportedState
  amountCents: number
  /** Upper case; null when the source leaves it to the program's currency. */
  currency: string | null
  saleAmountCents: number
  occurredAt: number
  /** The source's payout that paid it, when the commission names it (Tolt). */
  payout?: string | null
  paidAt?: number | null
}
export interface PayoutData {
  partner: string
  commissions: string[]
}

/** A row read from a source: `at` is the source's date for it (booking time is the importer's). */
export type SourceRow =
  | { kind: 'partner'; sourceId: string; at: number; data: PartnerData }
  | { kind: 'link'; sourceId: string; at: number; data: LinkData }
  | { kind: 'coupon'; sourceId: string; at: number; data: CouponData }
  | { kind: 'customer'; sourceId: string; at: number; data: CustomerData }
  | { kind: 'commission'; sourceId: string; at: number; data: CommissionData }
  | { kind: 'payout'; sourceId: string; at: number; data: PayoutData }

export interface SourcePage {
  rows: SourceRow[]
  skipped: { kind: ImportKind; sourceId: string; reason: string }[]
  /** The next page's cursor, or null after the last page. */
  next: string | null
}

/** One list a source is read by (affiliates, commissions…): `read` answers one page from its cursor (null: the first). */
export interface SourceStep {
  name: string
  read(http: SourceHttp, page: string | null): Promise<SourcePage>
}

export interface Source {
  name: ImportSource
  /** The documented base (scheme, host and version path); base_url replaces it. */
  base: string
  /** What the options lack for this source (Tolt needs source_program_id, FirstPromoter account_id), or null. */
  missing(options: SourceOptions): string | null
  headers(options: SourceOptions): Record<string, string>
  /** The source's own words in an error answer, or null. */
  errorText(body: unknown): string | null
  steps(options: SourceOptions): SourceStep[]
}

/** A source answer that ends the import: its status and what the source said. */
export class SourceError extends Error {}

/** How the client waits (real time; tests and the benchmark keep it real, bounded by Retry-After). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>

const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

const MAX_TRIES = 8
const MAX_WAIT_MS = 60_000
const REQUEST_MS = 30_000

/** Retry-After in ms: seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/** How long a source's own reason may be in an import's error (docs/imports.md: never the raw body). */
const REASON_CHARS = 200

/** The status and, when the source gives one in its documented error field, its reason, short and on one line. */
function answeredText(source: Source, status: number, body: unknown): string {
  const said = source.errorText(body)?.replace(/\s+/g, ' ').trim()
  if (!said) return `${source.name} answered ${status}`
  return `${source.name} answered ${status}: ${said.length > REASON_CHARS ? `${said.slice(0, REASON_CHARS - 1)}…` : said}`
}

/**
 * GETs of one source with its credentials: JSON answers; 429 and 5xx retried with backoff, other
 * errors thrown as SourceError. Each request goes through sourceGet (source-get.ts): the address
 * checked each time, no redirect, the body read up to 10 MB.
 */
export class SourceHttp {
  constructor(
    private readonly source: Source,
    private readonly options: SourceOptions,
    private readonly signal: AbortSignal,
    private readonly sleep: Sleep = realSleep,
    private readonly allowPrivate = false,
  ) {}

  async get(path: string, query: [string, string][]): Promise<unknown> {
    const base = this.options.baseUrl
    const url = new URL((base.endsWith('/') ? base.slice(0, -1) : base) + path)
    for (const [k, v] of query) url.searchParams.append(k, v)
    let wait = 1000
    for (let tries = 1; ; tries++) {
      if (this.signal.aborted) throw new SourceError('the import was stopped')
      let response: SourceAnswer
      try {
        response = await sourceGet(
          url,
          { accept: 'application/json', ...this.source.headers(this.options) },
          this.allowPrivate,
          AbortSignal.any([this.signal, AbortSignal.timeout(REQUEST_MS)]),
        )
      } catch (error) {
        // A refused address or an answer past the limit is not retried; it never names an address.
        if (error instanceof RefusedRequest || error instanceof AttemptError)
          throw new SourceError(`${this.source.name} ${error instanceof RefusedRequest ? '' : 'could not be reached: '}${error.message}`)
        if (this.signal.aborted || tries >= MAX_TRIES) throw new SourceError(`${this.source.name} could not be reached${codeOf(error)}`)
        await this.sleep(wait, this.signal)
        wait = Math.min(wait * 2, MAX_WAIT_MS)
        continue
      }
      let body: unknown = null
      try {
        body = response.text ? JSON.parse(response.text) : null
      } catch {
        /* not JSON: named below by its status */
      }
      if (response.status >= 200 && response.status < 300) {
        if (body === null || typeof body !== 'object') throw new SourceError(`${this.source.name} answered ${url.pathname} with no JSON`)
        return body
      }
      const retry = response.status === 429 || response.status >= 500
      if (retry && tries < MAX_TRIES) {
        // The source says how long to wait; without it, doubling waits from one second.
        const after = response.status === 429 ? retryAfterMs(response.retryAfter, Date.now()) : null
        await this.sleep(Math.min(after ?? wait, MAX_WAIT_MS), this.signal)
        wait = Math.min(wait * 2, MAX_WAIT_MS)
        continue
      }
      // A redirect is an answer like any other: never followed, named by its status.
      throw new SourceError(answeredText(this.source, response.status, body))
    }
  }
}

/** A network error's code (ECONNREFUSED, ENOTFOUND…), never its message: that may name the address reached. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? ` (${code})` : ''
}

/** Epoch ms of an ISO 8601 time, or `fallback` when absent or unreadable. */
export function timeOf(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value !== 'string') return fallback
  const t = Date.parse(value)
  return Number.isNaN(t) ? fallback : t
}

/** A whole number of cents from a number or a numeric string (Tolt sends strings), or null. */
export function centsOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null
}

export const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)

/** "First Last" from the parts present, or null. */
export const nameOf = (first: unknown, last: unknown): string | null => [textOf(first), textOf(last)].filter(Boolean).join(' ') || null

export type Json = Record<string, unknown>
export const list = (value: unknown): Json[] => (Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as Json[]) : [])
export const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {})
export const idOf = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null
