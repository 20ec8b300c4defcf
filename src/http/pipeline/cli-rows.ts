import { cli } from '../../domain/messages.ts'
import { withRequestId } from './errors.ts'
import { bool, data, enumOf, int, nullable, obj, ref, str, time } from './openapi-schema.ts'
import type { Route } from './route-table.ts'

// The rows of the route table for the CLI's routes (src/http/cli, docs/cli.md): route-table.ts
// spreads them in. Every /api/v1/cli/ route takes its limit group and its 500 rule from cliRoute.

const cliKey = { 401: 'Missing, malformed or unknown API key', 500: 'Failed (request_id in the message and in details)' }
export const cliRoute = (failure?: string): Route => ({ limit: 'cli', ...(failure ? { failure: withRequestId(failure) } : {}) })

export const cliRows: Record<string, Route> = {
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
  'GET /api/v1/cli/review': {
    id: 'cliListHeld',
    ...cliRoute(),
    body: data({
      type: 'array',
      items: {
        allOf: [
          ref('LedgerEntry'),
          obj({
            partner_name: nullable(str),
            partner_email: nullable(str),
            transaction_id: str,
            sale_amount_cents: int,
            reasons: { type: 'array', items: str, description: 'Each flag in words, in the order of flags' },
          }),
        ],
      },
    }),
  },
  'POST /api/v1/cli/commissions/:id/approve': {
    id: 'cliApproveCommission',
    ...cliRoute(),
    body: data(ref('LedgerEntry')),
    errors: { 401: 'Missing or unknown program key', 404: 'Commission not found', 409: 'Commission is not held for review' },
  },
  'POST /api/v1/cli/commissions/:id/reject': {
    id: 'cliRejectCommission',
    ...cliRoute(),
    request: { reason: 'Bought through their own link' },
    body: data(ref('LedgerEntry')),
    errors: {
      400: 'reason must be a text of at most 500 characters',
      401: 'Missing or unknown program key',
      404: 'Commission not found',
      409: 'Commission is not held for review',
    },
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
  'POST /api/v1/cli/dashboard-link': {
    id: 'cliDashboardLink',
    ...cliRoute(),
    body: data(obj({ url: { ...str, description: 'One-time sign-in link on PUBLIC_BASE_URL' }, expires_at: time })),
    errors: { 401: 'Login token missing, invalid or expired', 500: 'Failed to issue the link' },
  },
}
