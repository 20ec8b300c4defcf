import { bool, data, enumOf, int, list, nullable, obj, ref, str, time } from './openapi-schema.ts'
import { admin, adminBody, from, to } from './admin-answers.ts'
import type { Route } from './route-table.ts'

// The operator API's rows of the route table (route-table.ts, which spreads them in): what each
// /api/v1/admin route answers, for the OpenAPI document and the tests that check real answers.

/** The filters of the CSV exports (docs/decisions.md, First run: exports and filters). */
const csvQuery = {
  fromTo: [from, to],
  fromToStatus: [from, to, { name: 'status', required: false, description: 'pending, due, in_payout, paid, reversed or held' }],
  statusQ: [
    { name: 'status', required: false, description: 'pending, active, rejected or suspended' },
    { name: 'q', required: false, description: 'Part of the name or email, any case' },
  ],
}
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
      kind: enumOf('commission', 'reversal', 'bonus', 'payout', 'payout_canceled'),
      entry_id: int,
      amount_cents: int,
      currency: str,
      created_at: time,
      test_mode: bool,
      hash: str,
    }),
  },
  public_key: obj({ kty: str, crv: str, x: str }),
  signature: str,
})

/** The operator API's routes by "METHOD /path", as src/http/admin registers them. */
export const operatorRows: Record<string, Route> = {
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
  'POST /api/v1/admin/programs/:id/keys': {
    id: 'createKey',
    request: { scope: 'track', name: 'web server' },
    status: 201,
    body: data(obj({ key_id: int, scope: enumOf('track'), name: nullable(str), api_key: { ...str, description: 'Shown only this once' } })),
    errors: adminBody,
  },
  'GET /api/v1/admin/programs/:id/keys': {
    id: 'listKeys',
    body: obj({
      data: {
        type: 'array',
        items: obj({
          key_id: int,
          program_id: int,
          scope: enumOf('manage', 'track'),
          name: nullable(str),
          api_key: { ...str, description: 'Masked: its prefix and •' },
          created_at: time,
          rotate_by: nullable(time),
        }),
      },
      error: { type: 'null' },
      next_cursor: { type: 'null' },
    }),
    errors: admin,
  },
  'DELETE /api/v1/admin/keys/:id': {
    id: 'deleteKey',
    body: data(obj({ key_id: int, deleted: bool })),
    errors: { ...admin, 409: "The program's manage key cannot be deleted: regenerate it instead" },
  },
  'POST /api/v1/admin/commissions/:id/approve': {
    id: 'approveCommission',
    body: data(ref('LedgerEntry')),
    errors: { ...admin, 409: 'Commission is not held for review' },
  },
  'POST /api/v1/admin/commissions/:id/reject': {
    id: 'rejectCommission',
    request: { reason: 'Bought through their own link' },
    body: data(ref('LedgerEntry')),
    errors: { ...adminBody, 409: 'Commission is not held for review' },
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
  'POST /api/v1/admin/programs/:id/payouts/send': {
    id: 'sendPayouts',
    status: 202,
    body: data(
      obj({
        sending: { ...int, description: 'How many pending payouts became processing' },
        skipped: {
          type: 'array',
          description: 'Pending payouts not sent (another method, no details, a currency the rail cannot pay): they stay pending',
          items: obj({ payout_id: int, reason: str }),
        },
      }),
    ),
    errors: { ...adminBody, 400: 'rail must be paypal or stripe' },
    request: { rail: 'paypal' },
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
      {
        name: 'status',
        required: false,
        description: 'pending, processing, paid, failed or canceled, several separated by commas (default pending,paid)',
      },
      {
        name: 'format',
        required: false,
        description: 'paypal (PayPal Payouts, no header row) or wise (Wise batch): the pending payouts of partners paid that way',
      },
      { name: 'currency', required: false, description: 'with format: one currency (a PayPal file of several currencies is 400)' },
    ],
    errors: adminBody,
  },
  'GET /api/v1/admin/payouts/:id': { id: 'getPayout', body: list('PayoutDetail'), errors: admin },
  'POST /api/v1/admin/payouts/:id/paid': {
    id: 'markPayoutPaid',
    body: data(ref('Payout')),
    errors: { ...adminBody, 409: 'A canceled payout cannot be marked paid (nor a failed or processing one)' },
    request: { reference: 'bank-2026-06-30' },
  },
  'POST /api/v1/admin/payouts/:id/cancel': {
    id: 'cancelPayout',
    body: data(ref('Payout')),
    errors: { ...admin, 409: 'A paid payout cannot be canceled (nor a failed or processing one)' },
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
}
