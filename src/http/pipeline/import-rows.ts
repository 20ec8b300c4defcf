import { bool, data, enumOf, int, nullable, obj, str, time, type Schema } from './openapi-schema.ts'
import type { Route } from './route-table.ts'

// The rows of the import routes (docs/imports.md): the operator's and the CLI's, same bodies and answers.

const counts = obj({ partners: int, links: int, coupons: int, customers: int, sales: int, commissions: int, payouts: int })
/** An import as GET …/imports/:id answers it. */
export const importSchema: Schema = obj({
  import_id: int,
  program_id: int,
  source: enumOf('rewardful', 'tolt', 'firstpromoter', 'partnerstack'),
  status: enumOf('queued', 'running', 'done', 'failed'),
  dry_run: bool,
  phase: nullable(enumOf('read', 'write')),
  read_rows: int,
  counts,
  skipped: { type: 'array', items: obj({ kind: str, source_id: str, reason: str }) },
  skipped_count: int,
  error: nullable(str),
  started_at: nullable(time),
  finished_at: nullable(time),
  created_at: time,
})
const queued = data(obj({ import_id: int, status: { const: 'queued' } }))
const request = { source: 'rewardful', api_key: 'the-source-api-secret', dry_run: true }
const admin = {
  400: 'A field is invalid: the message names it',
  401: 'Wrong or missing admin token',
  404: 'Not found',
  500: 'Internal error',
}

export const importRows: Record<string, Route> = {
  'POST /api/v1/admin/programs/:id/imports': { id: 'createImport', status: 202, request, body: queued, errors: admin },
  'GET /api/v1/admin/imports/:id': { id: 'getImport', body: data(importSchema), errors: admin },
  'POST /api/v1/cli/imports': { id: 'cliCreateImport', limit: 'cli', status: 202, request, body: queued },
  'GET /api/v1/cli/imports/:id': { id: 'cliGetImport', limit: 'cli', body: data(importSchema) },
  'POST /api/v1/admin/imports/:id/cancel': {
    id: 'cancelImport',
    body: data(importSchema),
    errors: { ...admin, 409: 'The import has already ended (done or failed)' },
  },
  'POST /api/v1/cli/imports/:id/cancel': { id: 'cliCancelImport', limit: 'cli', body: data(importSchema) },
  // Settings → Import (src/http/pages/import-routes.ts): a page and its form.
  'GET /dashboard/programs/:id/settings/import': { envelope: 'none', reads: 'form', role: 'viewer' },
  // Starting an import moves money records in: an admin's, as every other change (docs/decisions.md, Teams).
  'POST /dashboard/programs/:id/settings/import': { envelope: 'none', reads: 'form', role: 'admin' },
  // Cancelling one stops what an admin started: an admin's too.
  'POST /dashboard/programs/:id/settings/import/:importId/cancel': { envelope: 'none', reads: 'form', role: 'admin' },
}
