import type { Role } from '../../domain/role.ts'
import { plain, typedRetry, type InternalError } from './errors.ts'
import { click, lead, refund, sale, shared } from '../../domain/messages.ts'
import { bool, data, enumOf, int, obj, ref, str, type Schema } from './openapi-schema.ts'
import { cliRows } from './cli-rows.ts'
import { groupRows } from './group-rows.ts'
import { teamRows } from './team-rows.ts'
import { operatorRows } from './operator-rows.ts'
import { pageRows } from './page-rows.ts'
import { webhookRows } from './webhook-rows.ts'
import { importRows } from './import-rows.ts'

/**
 * The route table: one row per route Elysia registers ("METHOD /path", as the route file writes
 * it), saying everything that is decided per route outside its handler. The pipeline (app.ts)
 * looks a request's path up once (routeOf, route-lookup.ts) and keeps the entry on the request state; the rate
 * limit, the CORS answers, the error envelope, the 500 message and the request-id rule are read
 * from that entry, and the OpenAPI document (openapi.ts) reads the same rows for each operation's
 * answers. A new endpoint is its route file and its row; test/route-table.test.ts fails when a
 * registered route has no row (or a row no route) and checks each row's behaviour against real
 * answers. The CLI's rows are in cli-rows.ts, the operator API's in operator-rows.ts (with group-rows.ts,
 * team-rows.ts and import-rows.ts), the pages' in page-rows.ts.
 */

/** The per-minute limits of docs/api.md (Limits). Sale and refund share one group, so one bucket. */
export type LimitGroup = 'click' | 'lead' | 'sale' | 'readiness' | 'cli' | 'discount'

/**
 * Whose bucket a request spends: its client IP, or the program key once recognised ('key'), or
 * on the CLI routes a program key or a login token ('key-or-login'); an unknown credential counts
 * against its IP (docs/decisions.md, Hostile input).
 */
export type Bucket = 'ip' | 'key' | 'key-or-login'

export const limits: Record<LimitGroup, { perMinute: number; bucket: Bucket }> = {
  click: { perMinute: 60, bucket: 'ip' },
  lead: { perMinute: 30, bucket: 'ip' },
  sale: { perMinute: 120, bucket: 'key' },
  readiness: { perMinute: 30, bucket: 'key' },
  cli: { perMinute: 60, bucket: 'key-or-login' },
  // docs/decisions.md, Groups: asked once per checkout, as often as sales are reported.
  discount: { perMinute: 120, bucket: 'key' },
}

/**
 * The envelope of a route's answers (docs/errors.md): 'platform' `{ data, error }`; 'coded', the
 * platform one with error.code on every error (`codes` gives it by status when the failure names
 * none); 'typed' `{ error: { code, message } }`, which the route's own errors choose; 'none', not
 * an API answer (a script, a page, a document), where the pipeline's errors still use 'platform'.
 */
export type Envelope = 'platform' | 'coded' | 'typed' | 'none'

/** What a route's request body is read as before its handler runs (app.ts, onParse). */
export type Reads = 'json' | 'raw' | 'form'

export interface Route {
  envelope?: Envelope
  /** error.code by status for the errors of a 'coded' route that name none. */
  codes?: Record<number, string>
  /** The per-minute limit group (X-RateLimit headers on every answer, 429 before the handler runs). */
  limit?: LimitGroup
  /** Meant for direct browser requests: CORS answers and preflights (docs/api.md, Other rules). */
  browser?: boolean
  /**
   * A dashboard page or form: the least member role that may use it (docs/decisions.md, Teams and
   * the audit log). The pages' guard (src/http/pages/guard.ts) checks it, and hides every form and
   * link to a route the member's role may not use; test/http/team/roles.test.ts fails for a
   * dashboard route without one.
   */
  role?: Role
  /** 'json' unless said: 'raw' for signed webhook bodies, 'form' for the dashboard's forms. */
  reads?: Reads
  /** The 500 of an unexpected failure; 'Internal server error' when absent. */
  failure?: InternalError
  /** docs/errors.md, Request IDs: X-Request-ID only on its 500. */
  requestId?: 'only-on-500'

  // What /openapi.json says the operation answers; a row without `id` is not in the document.
  id?: string
  /** The success status and body (a whole body, not only `data`). */
  status?: number
  body?: Schema
  /** Error statuses with their messages, in the route's envelope. */
  errors?: Record<number, string>
  /** A program key that passed its rotation deadline answers 401 RotationRequired. */
  rotation?: boolean
  paged?: boolean
  query?: { name: string; required: boolean; description: string }[]
  example?: unknown
  /** An example request body. */
  request?: unknown
  /** A success body that is not JSON. */
  media?: string
}

// docs/errors.md: sale and refund add error.code to every platform error; these are the defaults by status.
const saleCodes: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  409: 'duplicate_transaction',
  422: 'unsupported_currency',
  500: 'internal_error',
  503: 'service_unavailable',
}

const asset: Route = { envelope: 'none' }

/** Every route by "METHOD /path" as Elysia registers it. */
export const routeTable: Record<string, Route> = {
  'GET /healthz': {},
  'GET /openapi.json': asset,
  'GET /docs': asset,
  'GET /cli/login': asset,
  'GET /assets/dashboard.css': asset,
  'GET /assets/dashboard.js': asset,
  'GET /assets/favicon.svg': asset,
  'GET /.well-known/svc-ledger-key': asset,
  'GET /tracker.js': {
    id: 'getTracker',
    envelope: 'none',
    media: 'text/javascript',
    body: { type: 'string' },
    errors: {},
  },
  'POST /api/v1/track/click': {
    request: { affiliate_url: 'https://shop.example/pricing?aff=ada' },
    id: 'trackClick',
    body: ref('ClickAnswer'),
    limit: 'click',
    browser: true,
    failure: plain(click.failed),
    errors: {
      400: 'affiliate_url missing or invalid, no aff parameter, referral link not found or misconfigured',
      403: 'Origin not allowed for this program, or program_id does not match the API key',
      410: 'link_disabled',
      500: click.failed,
    },
    example: { success: true, click_id: 'clk_VboA2NnBR0C56SXiWUI0GBS', cookie_window_days: 60 },
  },
  'POST /api/v1/track/lead': {
    request: { click_id: 'clk_VboA2NnBR0C56SXiWUI0GBS', customer_key: 'user_42', email: 'jane@customer.example' },
    id: 'trackLead',
    body: data(ref('LeadData')),
    limit: 'lead',
    browser: true,
    failure: plain(lead.failed),
    rotation: true,
    errors: {
      400: 'No identifier, customer not found, customer of another program, or status cannot be updated to lead',
      401: 'Invalid API token',
      403: 'Origin not allowed, or program_id does not match the API key',
      500: lead.failed,
    },
    example: { data: { customer_id: 7, status: 'lead' }, error: null },
  },
  'POST /api/v1/track/sale': {
    request: { transaction_id: 'in_1001', amount_cents: 4900, currency: 'USD', customer_key: 'user_42' },
    id: 'trackSale',
    body: data(ref('SaleData')),
    envelope: 'coded',
    codes: saleCodes,
    limit: 'sale',
    failure: plain(sale.failed),
    rotation: true,
    errors: {
      400: 'invalid_request (a field) or no_attribution',
      401: 'unauthorized',
      409: 'duplicate_transaction: already recorded (details.sale_id); treat as success',
      422: 'unsupported_currency',
      500: 'internal_error',
    },
    example: {
      data: {
        sale_id: 3,
        transaction_id: 'in_1001',
        amount_cents: 4900,
        currency: 'USD',
        commission: { commission_id: 3, partner_id: 1, amount_cents: 980 },
      },
      error: null,
    },
  },
  'POST /api/v1/track/refund': {
    request: { transaction_id: 'in_1001', reason: 'refund', refund_reason: 'customer asked' },
    id: 'trackRefund',
    body: data(ref('RefundData')),
    envelope: 'coded',
    codes: saleCodes,
    limit: 'sale',
    failure: plain(refund.failed),
    rotation: true,
    errors: { 400: 'invalid_request', 401: 'unauthorized', 404: 'not_found: Sale not found for transaction_id', 500: 'internal_error' },
    example: { data: { sale_id: 3, transaction_id: 'in_1001', status: 'refunded' }, error: null },
  },
  'GET /api/v1/programs/me/readiness': {
    id: 'getReadiness',
    envelope: 'typed',
    limit: 'readiness',
    failure: typedRetry(shared.readinessFailed, 10),
    rotation: true,
    body: data(
      obj({
        program_id: int,
        ready: bool,
        checks: {
          type: 'array',
          items: obj({
            id: enumOf(
              'api_key',
              'browser_origins',
              'active_link',
              'first_click',
              'client_addresses',
              'first_lead',
              'first_sale',
              'live_data',
            ),
            ok: bool,
            message: str,
          }),
        },
        counts: obj({ live: ref('ReadinessCounts'), test: ref('ReadinessCounts'), processor_events: int }),
      }),
    ),
    errors: { 401: 'invalid_key', 500: 'internal_error (retry_after_seconds 10)' },
  },
  // The CLI's routes (src/http/cli): cli-rows.ts.
  ...cliRows,
  // The payment processors' webhooks: webhook-rows.ts.
  ...webhookRows,
  // The operator API (src/http/admin): operator-rows.ts.
  ...operatorRows,
  ...teamRows,
  // Groups, the discount and bonuses (docs/decisions.md, Groups): group-rows.ts.
  ...groupRows,
  // The dashboard and the partner portal (src/http/pages): page-rows.ts.
  ...pageRows,
  ...importRows,
}
