import { Elysia } from 'elysia'
import { presentAudit } from '../../tracking/audit.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { auditFilterOf } from '../pipeline/filters.ts'
import { idParam, listed, page, requireAdmin } from './guard.ts'

/** GET a program's audit log (docs/decisions.md, Teams and the audit log): newest first, paginated, filtered. */
export function auditAdminRoutes(deps: Deps) {
  const { stores } = deps.database
  return new Elysia({ name: 'admin-audit' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .get(
      '/api/v1/admin/programs/:id/audit',
      ({ params, query }) => {
        const programId = idParam(params.id, 'Program')
        const { limit, cursor } = page(query)
        const filter = auditFilterOf(query)
        const accountId = stores.accounts.accountOfProgram(programId)
        if (accountId === null) throw new HttpError(404, 'Program not found')
        const rows = stores.audit.listForProgram(programId, accountId, { ...filter, before: cursor, limit })
        return listed(rows, limit, presentAudit)
      },
      {
        detail: doc("A program's audit log and its account's member events, newest first", 'operator', { security: 'adminToken' }),
      },
    )
}
