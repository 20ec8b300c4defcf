import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { csvHeaders, type ExportName, exportCsv } from '../pipeline/exports.ts'
import { idParam, requireAdmin } from './guard.ts'

const exports: [ExportName, string][] = [
  ['sales', 'Sales as CSV; ?from= and ?to= (ISO 8601 dates, inclusive, UTC)'],
  ['commissions', 'Ledger entries as CSV with status and flags; ?from=, ?to= and ?status='],
  ['partners', 'Partners as CSV with their links count and payout details; ?status= and ?q='],
]

/** GET /api/v1/admin/programs/:id/{sales,commissions,partners}.csv: every row, RFC 4180, amounts in major units. */
export function exportAdminRoutes(deps: Deps) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let app: any = new Elysia({ name: 'admin-exports' }).onBeforeHandle(({ request }) => requireAdmin(deps, request))
  for (const [name, summary] of exports) {
    app = app.get(
      `/api/v1/admin/programs/:id/${name}.csv`,
      ({ params, query }: { params: { id: string }; query: Record<string, string | undefined> }) => {
        const programId = idParam(params.id, 'Program')
        if (!deps.database.stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
        return new Response(exportCsv(deps, name, programId, query), { headers: csvHeaders(name, programId) })
      },
      { detail: doc(summary, 'operator', { security: 'adminToken' }) },
    )
  }
  return app
}
