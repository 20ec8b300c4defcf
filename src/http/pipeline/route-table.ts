import { plain, typedRetry, withRequestId, type InternalError } from './errors.ts'
import { click, cli, lead, refund, sale, shared } from '../../domain/messages.ts'
import { bool, data, enumOf, int, list, nullable, obj, ref, str, time, type Schema } from './openapi-schema.ts'

/**
 * The route table: one row per route Elysia registers ("METHOD /path", as the route file writes
 * it), saying everything that is decided per route outside its handler. The pipeline (app.ts)
 * looks a request's path up once (routeOf) and keeps the entry on the request state; the rate
 * limit, the CORS answers, the error envelope, the 500 message and the request-id rule are read
 * from that entry, and the OpenAPI document (openapi.ts) reads the same rows for each operation's
 * answers. A new endpoint is its route file and its row; test/route-table.test.ts fails when a
 * registered route has no row (or a row no route) and checks each row's behaviour against real
 * answers.
 */

/** The per-minute limits of docs/api.md (Limits). Sale and refund share one group, so one bucket. */
export type LimitGroup = 'click' | 'lead' | 'sale' | 'readiness' | 'cli'

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

const admin = {
  401: 'Wrong or missing admin token',
  404: 'Not found (the whole operator API answers 404 when SVC_ADMIN_TOKEN is unset)',
  500: 'Internal error',
}
const adminBody = { 400: 'A field is invalid: the message names it', ...admin }
const from = { name: 'from', required: false, description: 'Created on or after this ISO 8601 date (UTC)' }
const to = { name: 'to', required: false, description: 'Created on or before this ISO 8601 date (UTC), inclusive' }
/** The filters of the CSV exports (docs/decisions.md, First run: exports and filters). */
const csvQuery = {
  fromTo: [from, to],
  fromToStatus: [from, to, { name: 'status', required: false, description: 'pending, due, in_payout, paid or reversed' }],
  statusQ: [
    { name: 'status', required: false, description: 'pending, active, rejected or suspended' },
    { name: 'q', required: false, description: 'Part of the name or email, any case' },
  ],
}
const cliKey = { 401: 'Missing, malformed or unknown API key', 500: 'Failed (request_id in the message and in details)' }
const cliRoute = (failure?: string): Route => ({ limit: 'cli', ...(failure ? { failure: withRequestId(failure) } : {}) })
const page: Route = { envelope: 'none', reads: 'form' }
/** A signed statement (docs/ledger.md). */
const statement = obj({
  version: int,
  program_id: int,
  partner_id: int,
  month: str,
  made_at: time,
  count: int,
  head: str,
  entries: {
    type: 'array',
    items: obj({
      seq: int,
      kind: enumOf('commission', 'reversal', 'payout', 'payout_canceled'),
      entry_id: int,
      amount_cents: nullable(int),
      currency: nullable(str),
      created_at: nullable(time),
      hash: str,
    }),
  },
  public_key: obj({ kty: str, crv: str, x: str }),
  signature: str,
})
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
            id: enumOf('api_key', 'browser_origins', 'active_link', 'first_click', 'first_lead', 'first_sale', 'live_data'),
            ok: bool,
            message: str,
          }),
        },
        counts: obj({ live: ref('ReadinessCounts'), test: ref('ReadinessCounts'), processor_events: int }),
      }),
    ),
    errors: { 401: 'invalid_key', 500: 'internal_error (retry_after_seconds 10)' },
  },
  'POST /api/v1/cli/auth/start': {
    id: 'cliAuthStart',
    ...cliRoute(cli.startFailed),
    body: data(obj({ state: str, login_url: str, expires_at: time })),
    errors: { 500: cli.startFailed },
  },
  'POST /api/v1/cli/auth/callback': {
    id: 'cliAuthCallback',
    ...cliRoute(cli.callbackFailed),
    body: data(obj({ state: str, status: { const: 'complete' } })),
    errors: {
      400: 'Missing required fields, or session expired',
      401: 'Invalid id_token (details.reason)',
      403: 'Account suspended (details.code ACCOUNT_BLOCKED)',
      404: 'Session not found or already used',
      500: cli.callbackFailed,
    },
  },
  'GET /api/v1/cli/auth/poll': {
    id: 'cliAuthPoll',
    ...cliRoute(cli.pollFailed),
    body: data(
      obj(
        {
          status: enumOf('pending', 'complete', 'expired'),
          expires_at: time,
          token: { ...str, description: 'The login token, handed out once' },
        },
        ['expires_at', 'token'],
      ),
    ),
    query: [{ name: 'state', required: true, description: 'The state answered by auth/start' }],
    errors: { 400: 'Missing state parameter, or session already consumed', 404: 'Session not found', 500: cli.pollFailed },
  },
  'POST /api/v1/cli/init': {
    id: 'cliInit',
    ...cliRoute(cli.initFailed),
    body: data(obj({ program_id: int, api_key: { ...str, description: 'Shown only this once' } })),
    errors: {
      400: 'Missing or invalid field',
      401: 'Login token missing, invalid or expired',
      403: 'No advertiser, or advertiser_id mismatch',
      500: 'Failed to create program: list programs before retrying',
    },
  },
  'GET /api/v1/cli/programs': {
    id: 'cliListPrograms',
    ...cliRoute(cli.programsFailed),
    body: data({
      type: 'array',
      items: obj({
        program_id: int,
        advertiser_id: int,
        name: str,
        domain: str,
        commission_type: str,
        commission_rate: { type: 'number' },
        lead_auth: str,
        attribution_window_days: int,
        created_at: time,
      }),
    }),
    errors: { 401: 'Login token missing, invalid or expired', 500: cli.programsFailed },
  },
  'GET /api/v1/cli/webhooks': { id: 'cliListWebhooks', ...cliRoute(), body: data({ type: 'array', items: ref('WebhookEndpoint') }) },
  'POST /api/v1/cli/webhooks': {
    id: 'cliAddWebhook',
    ...cliRoute(),
    status: 201,
    request: { url: 'https://hooks.shop.example/svc' },
    body: data(
      obj({ webhook_id: int, url: str, events: { type: 'array', items: str }, description: nullable(str), active: bool, secret: str }, []),
    ),
  },
  'POST /api/v1/cli/webhooks/:id/test': { id: 'cliTestWebhook', ...cliRoute(), body: data(ref('WebhookDelivery')) },
  'GET /api/v1/cli/webhooks/:id/deliveries': {
    id: 'cliWebhookDeliveries',
    ...cliRoute(),
    body: data({ type: 'array', items: ref('WebhookDelivery') }),
  },
  'GET /api/v1/cli/status': {
    id: 'cliStatus',
    ...cliRoute(cli.statusFailed),
    requestId: 'only-on-500',
    rotation: true,
    body: data(
      obj({
        program_id: int,
        program_name: str,
        advertiser_id: int,
        account_id: nullable(int),
        domain: str,
        lead_auth: enumOf('server_required', 'browser_allowed'),
        attribution_window_days: int,
        live: ref('Counts'),
        test: ref('Counts'),
      }),
    ),
    errors: cliKey,
  },
  'POST /api/v1/cli/test-event': {
    id: 'cliTestEvent',
    ...cliRoute(cli.testEventFailed),
    rotation: true,
    body: data({
      type: 'object',
      description:
        'Single event: { event_type, test_mode: true, … the click, lead or sale answer }. Chain: { type: "chain", test_mode: true, steps: [{ step, ok, … }], chains_remaining }.',
      properties: {
        test_mode: { const: true },
        event_type: enumOf('click', 'lead', 'sale'),
        type: { const: 'chain' },
        steps: { type: 'array', items: obj({ step: enumOf('click', 'lead', 'sale', 'commission'), ok: bool }) },
        chains_remaining: int,
      },
      required: ['test_mode'],
    }),
    errors: {
      400: 'Invalid event_type',
      ...cliKey,
      500: 'Failed to run the chain or the event (request_id in the message and in details; the steps are in the log line)',
    },
  },
  'POST /api/v1/cli/stripe-connect': { id: 'cliStripeConnect', status: 410, ...cliRoute(), body: ref('PlatformError'), errors: {} },
  'POST /api/v1/webhooks/stripe/:program_id': {
    id: 'receiveStripeEvent',
    reads: 'raw',
    body: obj({ received: { const: true } }),
    errors: { 400: 'Bad signature, body too large, or not a Stripe event', 404: 'Program not found', 500: 'Internal error' },
  },
  'POST /api/v1/webhooks/stripe': {
    id: 'receiveStripeConnectEvent',
    reads: 'raw',
    body: obj({ received: { const: true } }),
    errors: {
      400: 'Bad signature, body too large, or not a Stripe event',
      404: 'STRIPE_CONNECT_WEBHOOK_SECRET is not set',
      500: 'Internal error',
    },
  },
  'POST /api/v1/admin/accounts': {
    id: 'createAccount',
    request: { email: 'owner@shop.example' },
    status: 201,
    body: data(obj({ account_id: int, advertiser_id: int })),
    errors: adminBody,
  },
  'POST /api/v1/admin/accounts/:id/suspend': { id: 'suspendAccount', body: data(obj({ account_id: int, suspended: bool })), errors: admin },
  'POST /api/v1/admin/accounts/:id/unsuspend': {
    id: 'unsuspendAccount',
    body: data(obj({ account_id: int, suspended: bool })),
    errors: admin,
  },
  'POST /api/v1/admin/accounts/:id/id-token': { id: 'issueIdToken', body: data(obj({ id_token: str, expires_at: time })), errors: admin },
  'POST /api/v1/admin/programs': {
    request: {
      account_id: 1,
      name: 'Shop',
      domain: 'shop.example',
      commission_type: 'percent',
      commission_rate: 20,
      allowed_origins: ['http://localhost:5173'],
    },
    id: 'createProgram',
    status: 201,
    body: data(obj({ program_id: int, api_key: { ...str, description: 'Shown only this once' } })),
    errors: adminBody,
    example: { data: { program_id: 1, api_key: 'svc_live_…' }, error: null },
  },
  'GET /api/v1/admin/programs': { id: 'listPrograms', body: data({ type: 'array', items: ref('Program') }), errors: admin },
  'GET /api/v1/admin/programs/:id': { id: 'getProgram', body: list('Program'), errors: admin },
  'PATCH /api/v1/admin/programs/:id': {
    id: 'updateProgram',
    body: data(ref('Program')),
    errors: { ...adminBody, 409: 'stripe_account_id is already connected to another program' },
  },
  'POST /api/v1/admin/programs/:id/api-key': { id: 'regenerateApiKey', body: data(obj({ program_id: int, api_key: str })), errors: admin },
  'POST /api/v1/admin/programs/:id/api-key/rotation': {
    id: 'markKeyRotation',
    body: data(obj({ program_id: int, marked_at: time, rotate_by: time })),
    errors: adminBody,
  },
  'POST /api/v1/admin/programs/:id/partners': {
    id: 'createPartner',
    request: { name: 'Ada', email: 'ada@partner.example' },
    status: 201,
    body: data(obj({ partner_id: int })),
    errors: adminBody,
  },
  'PATCH /api/v1/admin/programs/:id/partners/:partner_id': {
    id: 'updatePartner',
    request: { commission_rate: 25, payout_method: 'paypal', payout_details: 'ada@partner.example' },
    body: data(ref('Partner')),
    errors: adminBody,
  },
  'DELETE /api/v1/admin/programs/:id/partners/:partner_id': {
    id: 'deletePartner',
    body: data(obj({ partner_id: int, deleted: bool })),
    errors: { ...adminBody, 409: 'The partner has sales: suspend them instead' },
  },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/approve': {
    id: 'approvePartner',
    body: data(ref('Partner')),
    errors: { ...adminBody, 409: 'The partner is not pending or rejected' },
  },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/reject': {
    id: 'rejectPartner',
    request: { reason: 'Not a fit for this program' },
    body: data(ref('Partner')),
    errors: { ...adminBody, 409: 'The partner is not pending' },
  },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/suspend': {
    id: 'suspendPartner',
    body: data(ref('Partner')),
    errors: { ...adminBody, 409: 'The partner is not active' },
  },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/coupons': {
    id: 'createCoupon',
    request: { code: 'ADA10', stripe_promotion_code: 'promo_1Nabc' },
    status: 201,
    body: data(obj({ coupon_id: int, code: str })),
    errors: { ...adminBody, 409: 'The code is taken in this program (compared without case)' },
  },
  'GET /api/v1/admin/programs/:id/coupons': { id: 'listCoupons', body: list('Coupon'), errors: admin },
  'DELETE /api/v1/admin/coupons/:id': {
    id: 'deleteCoupon',
    body: data(obj({ coupon_id: int, deleted: bool })),
    errors: admin,
  },
  'GET /api/v1/admin/programs/:id/partners/:partner_id/statements/:month': {
    id: 'getStatement',
    body: data(statement),
    errors: { ...admin, 400: 'month is not YYYY-MM, or is in the future' },
  },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/unsuspend': {
    id: 'unsuspendPartner',
    body: data(ref('Partner')),
    errors: { ...adminBody, 409: 'The partner is not suspended' },
  },
  'POST /api/v1/admin/programs/:id/links': {
    id: 'createLink',
    status: 201,
    request: { partner_id: 1, short_link: 'ada' },
    body: data(obj({ link_id: int, short_link: str, active: bool })),
    errors: { ...adminBody, 409: 'short_link is already taken' },
  },
  'PATCH /api/v1/admin/links/:id': { id: 'updateLink', body: data(obj({ link_id: int, active: bool })), errors: adminBody },
  'GET /api/v1/admin/programs/:id/partners': { id: 'listPartners', paged: true, body: list('Partner'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/links': { id: 'listLinks', paged: true, body: list('Link'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/customers': { id: 'listCustomers', paged: true, body: list('Customer'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/sales': { id: 'listSales', paged: true, body: list('Sale'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/commissions': { id: 'listCommissions', paged: true, body: list('LedgerEntry'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/events': { id: 'listProcessorEvents', paged: true, body: list('ProcessorEvent'), errors: adminBody },
  'POST /api/v1/admin/programs/:id/payouts': {
    id: 'runPayouts',
    status: 201,
    body: data({ type: 'array', items: ref('Payout') }),
    errors: adminBody,
    request: { until: '2026-06-30' },
  },
  'GET /api/v1/admin/programs/:id/payouts': { id: 'listPayouts', paged: true, body: list('Payout'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/sales.csv': {
    id: 'exportSalesCsv',
    media: 'text/csv',
    body: {
      type: 'string',
      description: 'Header row: sale_id, created_at, transaction_id, customer_key, partner_id, amount, currency, status, test_mode',
    },
    query: csvQuery.fromTo,
    errors: adminBody,
  },
  'GET /api/v1/admin/programs/:id/commissions.csv': {
    id: 'exportCommissionsCsv',
    media: 'text/csv',
    body: {
      type: 'string',
      description: 'Header row: commission_id, created_at, kind, partner_id, sale_id, amount, currency, status, flags, test_mode',
    },
    query: csvQuery.fromToStatus,
    errors: adminBody,
  },
  'GET /api/v1/admin/programs/:id/partners.csv': {
    id: 'exportPartnersCsv',
    media: 'text/csv',
    body: {
      type: 'string',
      description:
        'Header row: partner_id, name, email, status, links, created_at, commission_type, commission_rate, payout_method, payout_details',
    },
    query: csvQuery.statusQ,
    errors: adminBody,
  },
  'POST /api/v1/admin/programs/:id/webhooks': {
    id: 'createWebhook',
    status: 201,
    request: { url: 'https://hooks.shop.example/svc', events: ['sale.created', 'commission.created'] },
    body: data(
      obj({ webhook_id: int, url: str, events: { type: 'array', items: str }, description: nullable(str), active: bool, secret: str }, []),
    ),
    errors: adminBody,
  },
  'GET /api/v1/admin/programs/:id/webhooks': {
    id: 'listWebhooks',
    body: obj({ data: { type: 'array', items: ref('WebhookEndpoint') }, error: { type: 'null' }, next_cursor: { type: 'null' } }),
    errors: adminBody,
  },
  'PATCH /api/v1/admin/webhooks/:id': {
    id: 'updateWebhook',
    request: { active: false },
    body: data(ref('WebhookEndpoint')),
    errors: adminBody,
  },
  'DELETE /api/v1/admin/webhooks/:id': { id: 'deleteWebhook', body: data(obj({ webhook_id: int, deleted: bool })), errors: adminBody },
  'POST /api/v1/admin/webhooks/:id/secret': {
    id: 'rotateWebhookSecret',
    body: data(obj({ webhook_id: int, secret: str })),
    errors: adminBody,
  },
  'POST /api/v1/admin/webhooks/:id/test': { id: 'testWebhook', body: data(ref('WebhookDelivery')), errors: adminBody },
  'GET /api/v1/admin/webhooks/:id/deliveries': {
    id: 'listWebhookDeliveries',
    paged: true,
    query: [{ name: 'status', required: false, description: 'pending, delivered or failed' }],
    body: list('WebhookDelivery'),
    errors: adminBody,
  },
  'POST /api/v1/admin/webhooks/:id/deliveries/retry': {
    id: 'retryWebhookDeliveries',
    body: data(obj({ webhook_id: int, queued: int })),
    errors: adminBody,
  },
  'GET /api/v1/admin/emails': {
    id: 'listEmails',
    paged: true,
    query: [
      { name: 'program_id', required: false, description: 'Only the emails of this program' },
      { name: 'status', required: false, description: 'queued, sent or failed' },
    ],
    body: obj({
      data: {
        type: 'array',
        items: obj({
          email_id: int,
          program_id: nullable(int),
          kind: str,
          to: str,
          subject: str,
          status: enumOf('queued', 'sent', 'failed'),
          attempts: int,
          next_attempt_at: time,
          last_error: nullable(str),
          created_at: time,
          sent_at: nullable(time),
        }),
      },
      error: { type: 'null' },
      next_cursor: nullable(str),
    }),
    errors: adminBody,
  },
  'GET /api/v1/admin/programs/:id/payouts.csv': {
    id: 'exportPayoutsCsv',
    media: 'text/csv',
    body: {
      type: 'string',
      description: 'Header row: payout_id, partner_id, partner_name, partner_email, currency, amount, commissions, status',
    },
    query: [
      { name: 'status', required: false, description: 'pending, paid or canceled, several separated by commas (default pending,paid)' },
    ],
    errors: adminBody,
  },
  'GET /api/v1/admin/payouts/:id': { id: 'getPayout', body: list('PayoutDetail'), errors: admin },
  'POST /api/v1/admin/payouts/:id/paid': {
    id: 'markPayoutPaid',
    body: data(ref('Payout')),
    errors: { ...adminBody, 409: 'A canceled payout cannot be marked paid' },
    request: { reference: 'bank-2026-06-30' },
  },
  'POST /api/v1/admin/payouts/:id/cancel': {
    id: 'cancelPayout',
    body: data(ref('Payout')),
    errors: { ...admin, 409: 'A paid payout cannot be canceled' },
  },
  'POST /api/v1/admin/accounts/:id/dashboard-link': {
    id: 'issueDashboardLink',
    body: data(obj({ url: { ...str, description: 'One-time sign-in link on PUBLIC_BASE_URL' }, expires_at: time })),
    errors: { ...admin, 403: 'Account is suspended' },
  },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/portal-link': {
    id: 'issuePortalLink',
    body: data(obj({ url: { ...str, description: 'One-time partner portal sign-in link on PUBLIC_BASE_URL' }, expires_at: time })),
    errors: admin,
  },
  'POST /api/v1/cli/dashboard-link': {
    id: 'cliDashboardLink',
    ...cliRoute(),
    body: data(obj({ url: { ...str, description: 'One-time sign-in link on PUBLIC_BASE_URL' }, expires_at: time })),
    errors: { 401: 'Login token missing, invalid or expired', 500: 'Failed to issue the link' },
  },
  'GET /api/v1/admin/sales/:id': {
    id: 'getSale',
    errors: admin,
    body: obj({
      data: {
        type: 'array',
        description: 'A list of one sale',
        items: { allOf: [ref('Sale'), obj({ commissions: { type: 'array', items: ref('Commission') }, refund: nullable(ref('Refund')) })] },
      },
      error: { type: 'null' },
      next_cursor: { type: 'null' },
    }),
  },
  // The dashboard and the partner portal (src/http/pages): HTML pages and forms, not in the API document.
  'GET /': page,
  'GET /setup': page,
  'POST /setup': page,
  'GET /join/:program_id': page,
  'POST /join/:program_id': page,
  'GET /sign-in': page,
  'POST /sign-in': page,
  'GET /partner/sign-in': page,
  'POST /partner/sign-in': page,
  'GET /sign-in/:token': page,
  'POST /sign-in/:token': page,
  'POST /sign-out': page,
  'GET /dashboard': page,
  'POST /dashboard/programs': page,
  'GET /dashboard/programs/:id': page,
  'GET /dashboard/programs/:id/partners': page,
  'GET /dashboard/programs/:id/applications': page,
  'POST /dashboard/programs/:id/partners': page,
  'POST /dashboard/programs/:id/links': page,
  'POST /dashboard/programs/:id/links/:link_id/active': page,
  'POST /dashboard/programs/:id/partners/:partner_id/portal-link': page,
  'POST /dashboard/programs/:id/partners/:partner_id/sign-out': page,
  'POST /dashboard/programs/:id/partners/:partner_id/coupons': page,
  'POST /dashboard/programs/:id/coupons/:coupon_id/delete': page,
  'GET /dashboard/programs/:id/partners/:partner_id': page,
  'POST /dashboard/programs/:id/partners/:partner_id': page,
  'POST /dashboard/programs/:id/partners/:partner_id/status': page,
  'POST /dashboard/programs/:id/partners/:partner_id/delete': page,
  'GET /dashboard/programs/:id/sales': page,
  'POST /dashboard/programs/:id/sales': page,
  'POST /dashboard/programs/:id/refunds': page,
  'GET /dashboard/programs/:id/sales.csv': page,
  'GET /dashboard/programs/:id/commissions.csv': page,
  'GET /dashboard/programs/:id/partners.csv': page,
  'GET /dashboard/programs/:id/commissions': page,
  'GET /dashboard/programs/:id/events': page,
  'GET /dashboard/programs/:id/payouts': page,
  'GET /dashboard/programs/:id/webhooks': page,
  'POST /dashboard/programs/:id/webhooks': page,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/test': page,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/retry': page,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/active': page,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/secret': page,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/delete': page,
  'GET /dashboard/programs/:id/payouts.csv': page,
  'POST /dashboard/programs/:id/payouts': page,
  'POST /dashboard/programs/:id/payouts/:payout_id/paid': page,
  'POST /dashboard/programs/:id/payouts/:payout_id/cancel': page,
  'GET /dashboard/programs/:id/settings': page,
  'POST /dashboard/programs/:id/settings': page,
  'POST /dashboard/programs/:id/settings/origins': page,
  'POST /dashboard/programs/:id/settings/stripe': page,
  'POST /dashboard/programs/:id/settings/api-key': page,
  'POST /dashboard/programs/:id/settings/api-key/rotation': page,
  'GET /partner': page,
  'GET /partner/statements/:file': page,
  'GET /.well-known/svc-ledger-key': asset,
  'POST /partner/payout-details': page,
  'GET /dashboard/*': page,
  'GET /partner/*': page,
}

/** What the pipeline knows of a path, whatever the method: the rows of one path agree on all of it. */
export interface RouteEntry {
  /** The path as the routes write it ('/api/v1/admin/programs/:id'), or a namespace's prefix and '*'. */
  path: string
  envelope: Envelope
  codes: Record<number, string> | null
  limit: LimitGroup | null
  browser: boolean
  reads: Reads
  failure: InternalError | null
  /** The rows of the path by method. */
  methods: Record<string, Route>
}

/**
 * Paths under a namespace that no route answers still get its behaviour: probing unknown CLI paths
 * spends the CLI bucket like the CLI routes do (docs/api.md, Limits).
 */
const namespaces: { prefix: string; route: Route }[] = [{ prefix: '/api/v1/cli/', route: cliRoute() }]

const pathFields = ['envelope', 'codes', 'limit', 'browser', 'reads', 'failure'] as const

function entryOf(path: string, route: Route): RouteEntry {
  return {
    path,
    envelope: route.envelope ?? 'platform',
    codes: route.codes ?? null,
    limit: route.limit ?? null,
    browser: route.browser ?? false,
    reads: route.reads ?? 'json',
    failure: route.failure ?? null,
    methods: Object.create(null),
  }
}

/** One segment of the templates: static children first, then a `:param`, then a `*` that takes the rest. */
interface Node {
  children: Map<string, Node>
  param: Node | null
  entry: RouteEntry | null
  wildcard: RouteEntry | null
}
const node = (): Node => ({ children: new Map(), param: null, entry: null, wildcard: null })

const entries = new Map<string, RouteEntry>()
const staticPaths = new Map<string, RouteEntry>()
const templates = node()
for (const [key, route] of Object.entries(routeTable)) {
  const space = key.indexOf(' ')
  const method = key.slice(0, space)
  const path = key.slice(space + 1)
  let entry = entries.get(path)
  if (!entry) {
    entry = entryOf(path, route)
    entries.set(path, entry)
    if (!path.includes(':') && !path.includes('*')) staticPaths.set(path, entry)
    else {
      let at = templates
      const segments = path.slice(1).split('/')
      for (const [i, segment] of segments.entries()) {
        if (segment === '*' && i === segments.length - 1) at.wildcard = entry
        else if (segment.startsWith(':')) at = at.param ??= node()
        else at = at.children.get(segment) ?? at.children.set(segment, node()).get(segment)!
      }
      if (!path.endsWith('*')) at.entry = entry
    }
  }
  const fresh = entryOf(path, route)
  for (const field of pathFields) {
    if (fresh[field] !== entry[field]) throw new Error(`route table: ${key} disagrees with the other methods of ${path} on ${field}`)
  }
  entry.methods[method] = route
}
const namespaceEntries = namespaces.map(({ prefix, route }) => ({ prefix, entry: entryOf(`${prefix}*`, route) }))

/** Walks the templates from `from` (just after a '/'); at most two branches per segment, as deep as the deepest template. */
function walk(at: Node, path: string, from: number): RouteEntry | null {
  let end = path.indexOf('/', from)
  if (end === -1) end = path.length
  const segment = path.slice(from, end)
  const last = end === path.length
  let found: RouteEntry | null = null
  const child = at.children.get(segment)
  if (child) found = last ? child.entry : walk(child, path, end + 1)
  if (!found && at.param && segment !== '') found = last ? at.param.entry : walk(at.param, path, end + 1)
  return found ?? at.wildcard
}

/**
 * The entry of a request path (without its trailing slashes), or null when no route and no
 * namespace has it. A Map answers the static paths (click, sale…); only the others walk the
 * `:param` templates, segment by segment, with no regular expression.
 */
export function routeOf(path: string): RouteEntry | null {
  const found = staticPaths.get(path) ?? (path.charCodeAt(0) === 47 ? walk(templates, path, 1) : null)
  if (found) return found
  for (const space of namespaceEntries) if (path.startsWith(space.prefix)) return space.entry
  return null
}
