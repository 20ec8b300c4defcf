import { Elysia } from 'elysia'
import { issueSignInLink } from '../../tracking/sign-in-link.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { ok } from '../pipeline/envelope.ts'
import { requireLoginToken } from './login-token.ts'

/** POST /api/v1/cli/dashboard-link: the logged-in account's one-time dashboard link (`svc dashboard`). */
export function cliDashboardLinkRoute(deps: Deps) {
  return new Elysia({ name: 'cli-dashboard-link' }).post(
    '/api/v1/cli/dashboard-link',
    async ({ request, body }) => {
      const account = requireLoginToken(deps, request, 'programs')
      noBody(body)
      return ok(await issueSignInLink(deps, deps.config.publicBaseUrl, { kind: 'account', accountId: account.id }))
    },
    { detail: doc('A one-time dashboard sign-in link for the logged-in account (valid 10 minutes)', 'cli', { security: 'loginToken' }) },
  )
}
