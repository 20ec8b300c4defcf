import { Elysia } from 'elysia'
import { makeStatement } from '../../tracking/statements.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { partner as messages } from '../../domain/messages.ts'
import { idParam, requireAdmin } from './guard.ts'

/**
 * A partner's signed statement of a month, in the platform envelope (docs/ledger.md): the same
 * statement the partner's portal serves bare, for an operator who sends statements themselves.
 */
export function statementAdminRoutes(deps: Deps) {
  return new Elysia({ name: 'admin-statements' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .get(
      '/api/v1/admin/programs/:id/partners/:partner_id/statements/:month',
      async ({ params }) => {
        const programId = idParam(params.id, 'Program')
        const partnerId = idParam(params.partner_id, 'Partner')
        const answer = await makeStatement(deps, programId, partnerId, params.month)
        if (answer.kind === 'invalid') throw new HttpError(400, answer.message)
        if (answer.kind === 'not_found') throw new HttpError(404, messages.notFound)
        return ok(answer.statement)
      },
      {
        detail: doc("A partner's signed statement of a month (YYYY-MM, UTC): every ledger entry with its hash", 'operator', {
          security: 'adminToken',
        }),
      },
    )
}
