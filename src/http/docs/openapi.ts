import { columnsOf, type Table } from '../../db/columns.ts'
import { FRAUD_FLAGS } from '../../domain/fraud.ts'
import { hiddenColumns } from '../../domain/record.ts'
import {
  commissions,
  customers,
  links,
  partners,
  payouts,
  coupons,
  processorEvents,
  programs,
  refunds,
  sales,
  WEBHOOK_EVENT_TYPES,
  webhookEndpoints,
} from '../../db/schema.ts'
import { errorNames } from '../pipeline/envelope.ts'
import { bool, enumOf, int, nullable, obj, ref, str, time, type Schema } from '../pipeline/openapi-schema.ts'
import { routeTable } from '../pipeline/route-table.ts'
import { ClickAnswer, LeadData, RefundData, SaleData } from '../track/answers.ts'

// What /openapi.json says each operation answers: its operationId, success body and error
// statuses, in the envelope the route really renders (docs/errors.md), from the route table
// (route-table.ts). Route files keep their `detail: doc(...)` (summary, tag, credential, request
// schema); the table adds the answers, so the pipeline's own answers (429 before any route runs,
// the rotation 401) are listed once. Real answers are checked against the document in
// test/docs/openapi.test.ts.

/** A stored row as the operator API presents it (admin/present.ts): snake_case, `<name>_id`, times in ISO 8601. */
function rowSchema(name: string, table: Table, extra: Record<string, Schema> = {}, drop: string[] = []): Schema {
  const properties: Record<string, Schema> = {}
  for (const [key, column] of columnsOf(table)) {
    if (drop.includes(key) || hiddenColumns.has(key)) continue
    const field = key === 'id' ? `${name}_id` : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    const c = column as unknown as { dataType: string; columnType: string; notNull: boolean; enumValues?: string[] }
    let schema: Schema
    if (key.endsWith('At')) schema = time
    else if (c.dataType === 'boolean') schema = bool
    else if (c.dataType === 'json')
      schema =
        key === 'allowedOrigins' || key === 'currencies' || key === 'linkParams'
          ? { type: 'array', items: str }
          : key === 'flags'
            ? { type: 'array', items: enumOf(...FRAUD_FLAGS), description: 'Fraud signals raised when it was booked (docs/decisions.md)' }
            : { type: 'object' }
    else if (c.dataType === 'number') schema = c.columnType === 'SQLiteReal' ? { type: 'number' } : int
    else schema = c.enumValues?.length ? enumOf(...c.enumValues) : str
    properties[field] = c.notNull ? schema : nullable(schema)
  }
  return obj({ ...properties, ...extra })
}

/** Reusable schemas: the envelopes, the records of the read routes and the tracking answers. */
export const componentSchemas: Record<string, Schema> = {
  Member: {
    description: "A member of an account: its owner (the account's own email), an admin or a viewer.",
    ...obj({ member_id: int, email: str, role: enumOf('owner', 'admin', 'viewer'), created_at: time }),
  },
  AuditEntry: {
    description:
      'One entry of the append-only audit log: who (a member email, operator, key:<key id>:<scope>, system), what, on which object, when, from which IP. program_id is null for an account event (members).',
    ...obj({
      audit_id: int,
      at: time,
      actor: str,
      action: str,
      object_type: str,
      object_id: str,
      program_id: nullable(int),
      ip: nullable(str),
      details: { type: 'object', description: 'What changed' },
    }),
  },
  PlatformError: {
    description: 'The platform envelope of an error: `data` is null and `error` an object.',
    ...obj({
      data: { type: 'null' },
      error: obj({
        status: { ...int, description: 'Repeats the HTTP status' },
        name: enumOf(...Object.values(errorNames)),
        message: str,
        details: {
          type: 'object',
          description: 'Empty unless the error says otherwise (sale_id on 409, request_id on CLI 500s, code ACCOUNT_BLOCKED)',
        },
      }),
    }),
  },
  CodedPlatformError: {
    description: 'The platform envelope as sale and refund render it: error.code is stable, branch on it.',
    ...obj({
      data: { type: 'null' },
      error: obj({
        status: int,
        name: enumOf(...Object.values(errorNames)),
        message: str,
        details: { type: 'object' },
        code: enumOf(
          'invalid_request',
          'no_attribution',
          'unauthorized',
          'not_found',
          'duplicate_transaction',
          'unsupported_currency',
          'internal_error',
        ),
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
  ClickAnswer,
  LeadData,
  SaleData,
  RefundData,
  Counts: obj({ clicks: int, leads: int, provisional_leads: int, sales: int, commissions: int }),
  ReadinessCounts: obj({ clicks: int, leads: int, provisional_leads: int, sales: int }),
  Program: rowSchema(
    'program',
    programs,
    {
      stripe_webhook_secret: nullable({ ...str, description: 'Write-only: masked when set' }),
      paddle_webhook_secret: nullable({ ...str, description: 'Write-only: masked when set' }),
      lemonsqueezy_webhook_secret: nullable({ ...str, description: 'Write-only: masked when set' }),
      polar_webhook_secret: nullable({ ...str, description: 'Write-only: masked when set' }),
      api_key: nullable({ ...str, description: 'Masked' }),
      api_key_rotation: nullable(obj({ marked_at: time, rotate_by: time })),
    },
    ['stripeWebhookSecrets', 'paddleWebhookSecret', 'lemonsqueezyWebhookSecret', 'polarWebhookSecret'],
  ),
  Partner: rowSchema('partner', partners, {}, ['deletedAt']),
  Link: rowSchema('link', links),
  Customer: rowSchema('customer', customers),
  Sale: rowSchema('sale', sales),
  Commission: rowSchema('commission', commissions),
  LedgerEntry: rowSchema('commission', commissions, {
    status: {
      ...enumOf('pending', 'due', 'in_payout', 'paid', 'reversed', 'held'),
      description: 'Derived from the ledger and the holding period (docs/payouts.md)',
    },
  }),
  Payout: rowSchema('payout', payouts),
  Coupon: rowSchema('coupon', coupons, {}, ['codeKey']),
  WebhookEndpoint: rowSchema('webhook', webhookEndpoints, {}, ['secret', 'previousSecret', 'previousUntil', 'failingSince', 'deletedAt']),
  WebhookDelivery: obj({
    delivery_id: int,
    event_id: { ...str, description: 'evt_…: the webhook-id header, the same on every attempt' },
    type: enumOf(...WEBHOOK_EVENT_TYPES),
    status: enumOf('pending', 'delivered', 'failed'),
    attempts: int,
    last_status_code: nullable(int),
    last_error: nullable(str),
    next_attempt_at: nullable(time),
    delivered_at: nullable(time),
    created_at: time,
  }),
  PayoutDetail: {
    allOf: [
      ref('Payout'),
      obj({
        entries: {
          type: 'array',
          items: obj({ commission_id: int, kind: enumOf('commission', 'reversal', 'bonus'), amount_cents: int, created_at: time }),
        },
      }),
    ],
  },
  ProcessorEvent: rowSchema('processor_event', processorEvents),
  Refund: rowSchema('refund', refunds),
}

const json = (schema: Schema, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } })
const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute', schema: int },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: int },
  'X-RateLimit-Reset': { description: 'Unix seconds when the window ends', schema: int },
}

/** The `responses` (and pagination parameters) of the operation `method path`, or null when the table lacks it. */
export function answersOf(
  method: string,
  path: string,
): { operationId: string; responses: Record<string, unknown>; parameters: unknown[]; request?: unknown; signed: boolean } | null {
  const op = routeTable[`${method} ${path}`]
  if (!op?.id || !op.body) return null
  const envelope = op.envelope ?? 'platform'
  const errorSchema = ref(envelope === 'coded' ? 'CodedPlatformError' : envelope === 'typed' ? 'TypedError' : 'PlatformError')
  const headers = op.limit ? rateHeaders : undefined
  const responses: Record<string, unknown> = {
    [op.status ?? 200]: {
      description: op.status === 410 ? 'Retired: always answers 410 GoneError' : 'Success',
      ...(headers ? { headers } : {}),
      content: op.media ? { [op.media]: { schema: op.body } } : json(op.body, op.example),
    },
  }
  const errors = op.errors ?? {}
  for (const [status, description] of Object.entries(errors)) {
    let schema = errorSchema
    if (Number(status) === 410 && op.id === 'trackClick') schema = ref('LinkDisabled')
    else if (Number(status) === 401 && op.rotation) schema = { anyOf: [errorSchema, ref('RotationRequired')] }
    responses[status] = { description, content: json(schema) }
  }
  if (op.rotation && !errors[401]) responses[401] = { description: 'API key retired', content: json(ref('RotationRequired')) }
  if (op.limit) {
    responses[429] = {
      description: 'Rate limited (per minute, before the route runs)',
      headers: { ...rateHeaders, 'Retry-After': { description: 'Seconds to wait', schema: int } },
      content: json(ref('RateLimited')),
    }
  }
  const parameters = [
    ...(op.query ?? []).map((q) => ({ name: q.name, in: 'query', required: q.required, description: q.description, schema: str })),
    ...(op.paged
      ? [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Page size, 1 to 200',
            schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
          },
          { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page', schema: str },
        ]
      : []),
  ]
  // A signed webhook reads its raw body: the processor's signature header covers it.
  return { operationId: op.id, responses, parameters, request: op.request, signed: op.reads === 'raw' }
}
