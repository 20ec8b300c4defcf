import { Elysia } from 'elysia'
import { reviewCommission } from '../../tracking/review.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { RejectCommission, rejection, reviewed } from '../pipeline/review.ts'
import { idParam, operatorActor, requireAdmin } from './guard.ts'

/** POST /api/v1/admin/commissions/:id/approve and /reject: the operator reviews a held commission of any program. */
export function reviewAdminRoutes(deps: Deps) {
  const security = 'adminToken' as const
  return new Elysia({ name: 'admin-review' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/commissions/:id/approve',
      async ({ request, params }) =>
        reviewed(await reviewCommission(deps, operatorActor(request), null, idParam(params.id, 'Commission'), { action: 'approve' })),
      {
        detail: doc('Approve a held commission: pending or due again by its holding period, counted from its creation', 'operator', {
          security,
        }),
      },
    )
    .post(
      '/api/v1/admin/commissions/:id/reject',
      async ({ request, params, body }) =>
        reviewed(await reviewCommission(deps, operatorActor(request), null, idParam(params.id, 'Commission'), rejection(body))),
      {
        detail: doc('Reject a held commission: a reversal entry is written and it is reversed, never paid', 'operator', {
          security,
          body: RejectCommission,
        }),
      },
    )
}
