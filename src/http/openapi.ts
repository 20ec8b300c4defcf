import { columnsOf, type Table } from '../db/columns'
import { commissions, customers, links, partners, payouts, processorEvents, programs, refunds, sales } from '../db/schema'
import { errorNames } from './envelope'
import { ClickAnswer, LeadData, RefundData, SaleData } from './track-answers'

// What /openapi.json says each operation answers: its operationId, success body and error
// statuses, in the envelope the route really renders (docs/errors.md). Route files keep their
// `detail: doc(...)` (summary, tag, credential, request schema); this table adds the answers,
// so the pipeline's own answers (429 before any route runs, the rotation 401) are listed once.
// Every entry is checked against a real answer in test/http/openapi.test.ts.

type Schema = Record<string, unknown>
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
const obj = (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
  type: 'object', properties, required: Object.keys(properties).filter((k) => !optional.includes(k)),
})
const str: Schema = { type: 'string' }
const time: Schema = { type: 'string', format: 'date-time' }
const int: Schema = { type: 'integer' }
const bool: Schema = { type: 'boolean' }
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] })
const enumOf = (...values: string[]): Schema => ({ type: 'string', enum: values })

/** A stored row as the operator API presents it (admin/present.ts): snake_case, `<name>_id`, times in ISO 8601. */
function rowSchema(name: string, table: Table, extra: Record<string, Schema> = {}, drop: string[] = []): Schema {
  const properties: Record<string, Schema> = {}
  for (const [key, column] of columnsOf(table)) {
    if (drop.includes(key)) continue
    const field = key === 'id' ? `${name}_id` : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    const c = column as unknown as { dataType: string; columnType: string; notNull: boolean; enumValues?: string[] }
    let schema: Schema
    if (key.endsWith('At')) schema = time
    else if (c.dataType === 'boolean') schema = bool
    else if (c.dataType === 'json') schema = key === 'allowedOrigins' ? { type: 'array', items: str } : { type: 'object' }
    else if (c.dataType === 'number') schema = c.columnType === 'SQLiteReal' ? { type: 'number' } : int
    else schema = c.enumValues?.length ? enumOf(...c.enumValues) : str
    properties[field] = c.notNull ? schema : nullable(schema)
  }
  return obj({ ...properties, ...extra })
}

/** Reusable schemas: the envelopes, the records of the read routes and the tracking answers. */
export const componentSchemas: Record<string, Schema> = {
  PlatformError: {
    description: 'The platform envelope of an error: `data` is null and `error` an object.',
    ...obj({
      data: { type: 'null' },
      error: obj({
        status: { ...int, description: 'Repeats the HTTP status' },
        name: enumOf(...Object.values(errorNames)),
        message: str,
        details: { type: 'object', description: 'Empty unless the error says otherwise (sale_id on 409, request_id on CLI 500s, code ACCOUNT_BLOCKED)' },
      }),
    }),
  },
  CodedPlatformError: {
    description: 'The platform envelope as sale and refund render it: error.code is stable, branch on it.',
    ...obj({
      data: { type: 'null' },
      error: obj({
        status: int, name: enumOf(...Object.values(errorNames)), message: str, details: { type: 'object' },
        code: enumOf('invalid_request', 'no_attribution', 'unauthorized', 'not_found', 'duplicate_transaction', 'unsupported_currency', 'internal_error'),
      }),
    }),
  },
  TypedError: {
    description: 'The typed envelope: no `data` key; error.code and error.message always present.',
    ...obj({ error: obj({ code: str, message: str, retry_after_seconds: int }, ['retry_after_seconds']) }),
  },
  RateLimited: {
    description: 'Answered before the route runs: nothing was recorded, retrying after Retry-After seconds is safe.',
    ...obj({ error: obj({ code: { const: 'rate_limited' }, message: str, status: { const: 429 }, retry_after_seconds: int }) }),
  },
  RotationRequired: {
    description: 'The API key passed its rotation deadline: regenerate it (POST /api/v1/admin/programs/{id}/api-key).',
    ...obj({ error: obj({ code: { const: 'api_key_rotation_required' }, message: str, hint: str, docs_url: str }) }),
  },
  LinkDisabled: {
    description: 'The referral link is turned off; no click was recorded.',
    ...obj({ success: { const: false }, message: str, error: obj({ code: { const: 'link_disabled' }, message: str, hint: str }) }),
  },
  Warning: {
    description: 'Top-level `warnings` entry while the key is due for rotation.',
    ...obj({ code: { const: 'api_key_rotation_required' }, message: str, hint: str, rotate_by: time, docs_url: str }),
  },
  ClickAnswer, LeadData, SaleData, RefundData,
  Counts: obj({ clicks: int, leads: int, provisional_leads: int, sales: int, commissions: int }),
  ReadinessCounts: obj({ clicks: int, leads: int, provisional_leads: int, sales: int }),
  Program: rowSchema('program', programs, {
    stripe_webhook_secret: nullable({ ...str, description: 'Write-only: masked when set' }),
    api_key: nullable({ ...str, description: 'Masked' }),
    api_key_rotation: nullable(obj({ marked_at: time, rotate_by: time })),
  }, ['stripeWebhookSecrets']),
  Partner: rowSchema('partner', partners),
  Link: rowSchema('link', links),
  Customer: rowSchema('customer', customers),
  Sale: rowSchema('sale', sales),
  Commission: rowSchema('commission', commissions),
  LedgerEntry: rowSchema('commission', commissions, {
    status: { ...enumOf('pending', 'due', 'in_payout', 'paid', 'reversed'), description: 'Derived from the ledger and the holding period (docs/payouts.md)' },
  }),
  Payout: rowSchema('payout', payouts),
  PayoutDetail: { allOf: [ref('Payout'), obj({ entries: { type: 'array', items: obj({ commission_id: int, kind: enumOf('commission', 'reversal'), amount_cents: int, created_at: time }) } })] },
  ProcessorEvent: rowSchema('processor_event', processorEvents),
  Refund: rowSchema('refund', refunds),
}

type Envelope = 'platform' | 'coded' | 'typed'
interface Operation {
  id: string
  /** The success status and body (a whole body, not only `data`). */
  status?: number
  body: Schema
  /** Error statuses with their messages, in the route's envelope. */
  errors: Record<number, string>
  envelope?: Envelope
  /** The pipeline limits it per minute (429 RateLimited). */
  limited?: boolean
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

const data = (schema: Schema): Schema => obj({ data: schema, error: { type: 'null' }, warnings: { type: 'array', items: ref('Warning') } }, ['warnings'])
const list = (item: string): Schema => obj({
  data: { type: 'array', items: ref(item) }, error: { type: 'null' },
  next_cursor: { ...nullable(str), description: 'The cursor of the next page; null on the last page' },
})

const admin = { 401: 'Wrong or missing admin token', 404: 'Not found (the whole operator API answers 404 when SVC_ADMIN_TOKEN is unset)', 500: 'Internal error' }
const adminBody = { 400: 'A field is invalid: the message names it', ...admin }
const cliKey = { 401: 'Missing, malformed or unknown API key', 500: 'Failed (request_id in the message and in details)' }

/** The operations by "METHOD /path" as Elysia registers them. */
export const operations: Record<string, Operation> = {
  'GET /tracker.js': {
    id: 'getTracker', media: 'text/javascript', body: { type: 'string' }, errors: {},
  },
  'POST /api/v1/track/click': {
    request: { affiliate_url: 'https://shop.example/pricing?aff=ada' },
    id: 'trackClick', body: ref('ClickAnswer'), limited: true,
    errors: { 400: 'affiliate_url missing or invalid, no aff parameter, referral link not found or misconfigured', 403: 'Origin not allowed for this program, or program_id does not match the API key', 410: 'link_disabled', 500: 'Click tracking failed' },
    example: { success: true, click_id: 'clk_VboA2NnBR0C56SXiWUI0GBS', cookie_window_days: 60 },
  },
  'POST /api/v1/track/lead': {
    request: { click_id: 'clk_VboA2NnBR0C56SXiWUI0GBS', customer_key: 'user_42', email: 'jane@customer.example' },
    id: 'trackLead', body: data(ref('LeadData')), limited: true, rotation: true,
    errors: { 400: 'No identifier, customer not found, customer of another program, or status cannot be updated to lead', 401: 'Invalid API token', 403: 'Origin not allowed, or program_id does not match the API key', 500: 'Lead tracking failed' },
    example: { data: { customer_id: 7, status: 'lead' }, error: null },
  },
  'POST /api/v1/track/sale': {
    request: { transaction_id: 'in_1001', amount_cents: 4900, currency: 'USD', customer_key: 'user_42' },
    id: 'trackSale', body: data(ref('SaleData')), envelope: 'coded', limited: true, rotation: true,
    errors: { 400: 'invalid_request (a field) or no_attribution', 401: 'unauthorized', 409: 'duplicate_transaction: already recorded (details.sale_id); treat as success', 422: 'unsupported_currency', 500: 'internal_error' },
    example: { data: { sale_id: 3, transaction_id: 'in_1001', amount_cents: 4900, currency: 'USD', commission: { commission_id: 3, partner_id: 1, amount_cents: 980 } }, error: null },
  },
  'POST /api/v1/track/refund': {
    request: { transaction_id: 'in_1001', reason: 'refund', refund_reason: 'customer asked' },
    id: 'trackRefund', body: data(ref('RefundData')), envelope: 'coded', limited: true, rotation: true,
    errors: { 400: 'invalid_request', 401: 'unauthorized', 404: 'not_found: Sale not found for transaction_id', 500: 'internal_error' },
    example: { data: { sale_id: 3, transaction_id: 'in_1001', status: 'refunded' }, error: null },
  },
  'GET /api/v1/programs/me/readiness': {
    id: 'getReadiness', envelope: 'typed', limited: true, rotation: true,
    body: data(obj({
      program_id: int, ready: bool,
      checks: { type: 'array', items: obj({ id: enumOf('api_key', 'browser_origins', 'active_link', 'first_click', 'first_lead', 'first_sale', 'live_data'), ok: bool, message: str }) },
      counts: obj({ live: ref('ReadinessCounts'), test: ref('ReadinessCounts'), processor_events: int }),
    })),
    errors: { 401: 'invalid_key', 500: 'internal_error (retry_after_seconds 10)' },
  },
  'POST /api/v1/cli/auth/start': {
    id: 'cliAuthStart', limited: true, body: data(obj({ state: str, login_url: str, expires_at: time })), errors: { 500: 'Failed to start auth session' },
  },
  'POST /api/v1/cli/auth/callback': {
    id: 'cliAuthCallback', limited: true, body: data(obj({ state: str, status: { const: 'complete' } })),
    errors: { 400: 'Missing required fields, or session expired', 401: 'Invalid id_token (details.reason)', 403: 'Account suspended (details.code ACCOUNT_BLOCKED)', 404: 'Session not found or already used', 500: 'Auth callback failed' },
  },
  'GET /api/v1/cli/auth/poll': {
    id: 'cliAuthPoll', limited: true,
    body: data(obj({ status: enumOf('pending', 'complete', 'expired'), expires_at: time, token: { ...str, description: 'The login token, handed out once' } }, ['expires_at', 'token'])),
    query: [{ name: 'state', required: true, description: 'The state answered by auth/start' }],
    errors: { 400: 'Missing state parameter, or session already consumed', 404: 'Session not found', 500: 'Failed to poll auth session' },
  },
  'POST /api/v1/cli/init': {
    id: 'cliInit', limited: true, body: data(obj({ program_id: int, api_key: { ...str, description: 'Shown only this once' } })),
    errors: { 400: 'Missing or invalid field', 401: 'Login token missing, invalid or expired', 403: 'No advertiser, or advertiser_id mismatch', 500: 'Failed to create program: list programs before retrying' },
  },
  'GET /api/v1/cli/programs': {
    id: 'cliListPrograms', limited: true,
    body: data({ type: 'array', items: obj({ program_id: int, advertiser_id: int, name: str, domain: str, commission_type: str, commission_rate: { type: 'number' }, lead_auth: str, attribution_window_days: int, created_at: time }) }),
    errors: { 401: 'Login token missing, invalid or expired', 500: 'Failed to list programs' },
  },
  'GET /api/v1/cli/status': {
    id: 'cliStatus', limited: true, rotation: true,
    body: data(obj({
      program_id: int, program_name: str, advertiser_id: int, account_id: nullable(int), domain: str,
      lead_auth: enumOf('server_required', 'browser_allowed'), attribution_window_days: int, live: ref('Counts'), test: ref('Counts'),
    })),
    errors: cliKey,
  },
  'POST /api/v1/cli/test-event': {
    id: 'cliTestEvent', limited: true, rotation: true,
    body: data({ type: 'object', description: 'Single event: { event_type, test_mode: true, … the click, lead or sale answer }. Chain: { type: "chain", test_mode: true, steps: [{ step, ok, … }], chains_remaining }.', properties: { test_mode: { const: true }, event_type: enumOf('click', 'lead', 'sale'), type: { const: 'chain' }, steps: { type: 'array', items: obj({ step: enumOf('click', 'lead', 'sale', 'commission'), ok: bool }) }, chains_remaining: int }, required: ['test_mode'] }),
    errors: { 400: 'Invalid event_type', ...cliKey, 500: 'Failed to run the chain or the event (request_id in the message and in details; the steps are in the log line)' },
  },
  'POST /api/v1/cli/stripe-connect': { id: 'cliStripeConnect', status: 410, limited: true, body: ref('PlatformError'), errors: {} },
  'POST /api/v1/webhooks/stripe/:program_id': {
    id: 'receiveStripeEvent', body: obj({ received: { const: true } }),
    errors: { 400: 'Bad signature, body too large, or not a Stripe event', 404: 'Program not found', 500: 'Internal error' },
  },
  'POST /api/v1/webhooks/stripe': {
    id: 'receiveStripeConnectEvent', body: obj({ received: { const: true } }),
    errors: { 400: 'Bad signature, body too large, or not a Stripe event', 404: 'STRIPE_CONNECT_WEBHOOK_SECRET is not set', 500: 'Internal error' },
  },
  'POST /api/v1/admin/accounts': { id: 'createAccount', request: { email: 'owner@shop.example' }, status: 201, body: data(obj({ account_id: int, advertiser_id: int })), errors: adminBody },
  'POST /api/v1/admin/accounts/:id/suspend': { id: 'suspendAccount', body: data(obj({ account_id: int, suspended: bool })), errors: admin },
  'POST /api/v1/admin/accounts/:id/unsuspend': { id: 'unsuspendAccount', body: data(obj({ account_id: int, suspended: bool })), errors: admin },
  'POST /api/v1/admin/accounts/:id/id-token': { id: 'issueIdToken', body: data(obj({ id_token: str, expires_at: time })), errors: admin },
  'POST /api/v1/admin/programs': {
    request: { account_id: 1, name: 'Shop', domain: 'shop.example', commission_type: 'percent', commission_rate: 20, allowed_origins: ['http://localhost:5173'] },
    id: 'createProgram', status: 201, body: data(obj({ program_id: int, api_key: { ...str, description: 'Shown only this once' } })), errors: adminBody,
    example: { data: { program_id: 1, api_key: 'svc_live_…' }, error: null },
  },
  'GET /api/v1/admin/programs': { id: 'listPrograms', body: data({ type: 'array', items: ref('Program') }), errors: admin },
  'GET /api/v1/admin/programs/:id': { id: 'getProgram', body: list('Program'), errors: admin },
  'PATCH /api/v1/admin/programs/:id': { id: 'updateProgram', body: data(ref('Program')), errors: { ...adminBody, 409: 'stripe_account_id is already connected to another program' } },
  'POST /api/v1/admin/programs/:id/api-key': { id: 'regenerateApiKey', body: data(obj({ program_id: int, api_key: str })), errors: admin },
  'POST /api/v1/admin/programs/:id/api-key/rotation': { id: 'markKeyRotation', body: data(obj({ program_id: int, marked_at: time, rotate_by: time })), errors: adminBody },
  'POST /api/v1/admin/programs/:id/partners': { id: 'createPartner', request: { name: 'Ada', email: 'ada@partner.example' }, status: 201, body: data(obj({ partner_id: int })), errors: adminBody },
  'POST /api/v1/admin/programs/:id/links': {
    id: 'createLink', status: 201, request: { partner_id: 1, short_link: 'ada' }, body: data(obj({ link_id: int, short_link: str, active: bool })), errors: { ...adminBody, 409: 'short_link is already taken' },
  },
  'PATCH /api/v1/admin/links/:id': { id: 'updateLink', body: data(obj({ link_id: int, active: bool })), errors: adminBody },
  'GET /api/v1/admin/programs/:id/partners': { id: 'listPartners', paged: true, body: list('Partner'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/links': { id: 'listLinks', paged: true, body: list('Link'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/customers': { id: 'listCustomers', paged: true, body: list('Customer'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/sales': { id: 'listSales', paged: true, body: list('Sale'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/commissions': { id: 'listCommissions', paged: true, body: list('LedgerEntry'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/events': { id: 'listProcessorEvents', paged: true, body: list('ProcessorEvent'), errors: adminBody },
  'POST /api/v1/admin/programs/:id/payouts': {
    id: 'runPayouts', status: 201, body: data({ type: 'array', items: ref('Payout') }), errors: adminBody, request: { until: '2026-06-30' },
  },
  'GET /api/v1/admin/programs/:id/payouts': { id: 'listPayouts', paged: true, body: list('Payout'), errors: adminBody },
  'GET /api/v1/admin/programs/:id/payouts.csv': {
    id: 'exportPayoutsCsv', media: 'text/csv', body: { type: 'string', description: 'Header row: payout_id, partner_id, partner_name, partner_email, currency, amount, commissions, status' },
    query: [{ name: 'status', required: false, description: 'pending, paid or canceled, several separated by commas (default pending,paid)' }],
    errors: adminBody,
  },
  'GET /api/v1/admin/payouts/:id': { id: 'getPayout', body: list('PayoutDetail'), errors: admin },
  'POST /api/v1/admin/payouts/:id/paid': {
    id: 'markPayoutPaid', body: data(ref('Payout')), errors: { ...adminBody, 409: 'A canceled payout cannot be marked paid' }, request: { reference: 'bank-2026-06-30' },
  },
  'POST /api/v1/admin/payouts/:id/cancel': { id: 'cancelPayout', body: data(ref('Payout')), errors: { ...admin, 409: 'A paid payout cannot be canceled' } },
  'POST /api/v1/admin/accounts/:id/dashboard-link': {
    id: 'issueDashboardLink', body: data(obj({ url: { ...str, description: 'One-time sign-in link on PUBLIC_BASE_URL' }, expires_at: time })), errors: { ...admin, 403: 'Account is suspended' },
  },
  'POST /api/v1/admin/programs/:id/partners/:partner_id/portal-link': {
    id: 'issuePortalLink', body: data(obj({ url: { ...str, description: 'One-time partner portal sign-in link on PUBLIC_BASE_URL' }, expires_at: time })), errors: admin,
  },
  'POST /api/v1/cli/dashboard-link': {
    id: 'cliDashboardLink', limited: true, body: data(obj({ url: { ...str, description: 'One-time sign-in link on PUBLIC_BASE_URL' }, expires_at: time })),
    errors: { 401: 'Login token missing, invalid or expired', 500: 'Failed to issue the link' },
  },
  'GET /api/v1/admin/sales/:id': {
    id: 'getSale', errors: admin,
    body: data({ allOf: [ref('Sale'), obj({ commissions: { type: 'array', items: ref('Commission') }, refund: nullable(ref('Refund')) })] }),
  },
}

const json = (schema: Schema, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } })
const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute', schema: int },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: int },
  'X-RateLimit-Reset': { description: 'Unix seconds when the window ends', schema: int },
}

/** The `responses` (and pagination parameters) of the operation `method path`, or null when the table lacks it. */
export function answersOf(method: string, path: string): { operationId: string; responses: Record<string, unknown>; parameters: unknown[]; request?: unknown } | null {
  const op = operations[`${method} ${path}`]
  if (!op) return null
  const envelope = op.envelope ?? 'platform'
  const errorSchema = ref(envelope === 'coded' ? 'CodedPlatformError' : envelope === 'typed' ? 'TypedError' : 'PlatformError')
  const headers = op.limited ? rateHeaders : undefined
  const responses: Record<string, unknown> = {
    [op.status ?? 200]: { description: op.status === 410 ? 'Retired: always answers 410 GoneError' : 'Success', ...(headers ? { headers } : {}), content: op.media ? { [op.media]: { schema: op.body } } : json(op.body, op.example) },
  }
  for (const [status, description] of Object.entries(op.errors)) {
    let schema = errorSchema
    if (Number(status) === 410 && op.id === 'trackClick') schema = ref('LinkDisabled')
    else if (Number(status) === 401 && op.rotation) schema = { anyOf: [errorSchema, ref('RotationRequired')] }
    responses[status] = { description, content: json(schema) }
  }
  if (op.rotation && !op.errors[401]) responses[401] = { description: 'API key retired', content: json(ref('RotationRequired')) }
  if (op.limited) {
    responses[429] = {
      description: 'Rate limited (per minute, before the route runs)',
      headers: { ...rateHeaders, 'Retry-After': { description: 'Seconds to wait', schema: int } },
      content: json(ref('RateLimited')),
    }
  }
  const parameters = [
    ...(op.query ?? []).map((q) => ({ name: q.name, in: 'query', required: q.required, description: q.description, schema: str })),
    ...(op.paged ? [
      { name: 'limit', in: 'query', required: false, description: 'Page size, 1 to 200', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
      { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: str },
    ] : []),
  ]
  return { operationId: op.id, responses, parameters, request: op.request }
}
