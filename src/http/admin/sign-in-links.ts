import { Elysia } from 'elysia'
import { issueSignInLink } from '../../tracking/sign-in-link.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { idParam, requireAdmin } from './guard.ts'

/** The operator's dashboard and portal sign-in links (docs/decisions.md, Dashboard and partner portal). */
export function signInLinkRoutes(deps: Deps) {
  const { stores } = deps.database
  return new Elysia({ name: 'admin-sign-in-links' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/accounts/:id/dashboard-link',
      async ({ params, body }) => {
        noBody(body)
        const account = stores.accounts.findAccount(idParam(params.id, 'Account'))
        if (!account) throw new HttpError(404, 'Account not found')
        if (account.suspended) throw new HttpError(403, 'Account is suspended')
        return ok(await issueSignInLink(deps, deps.config.publicBaseUrl, { kind: 'account', accountId: account.id }))
      },
      { detail: doc('A one-time dashboard sign-in link for an account (valid 10 minutes)', 'operator', { security: 'adminToken' }) },
    )
    .post(
      '/api/v1/admin/programs/:id/partners/:partner_id/portal-link',
      async ({ params, body }) => {
        noBody(body)
        const partner = stores.webSessions.findProgramPartner(idParam(params.id, 'Program'), idParam(params.partner_id, 'Partner'))
        if (!partner) throw new HttpError(404, 'Partner not found')
        return ok(await issueSignInLink(deps, deps.config.publicBaseUrl, { kind: 'partner', partnerId: partner.id }))
      },
      { detail: doc('A one-time partner portal sign-in link (valid 10 minutes)', 'operator', { security: 'adminToken' }) },
    )
}
