import { noBody } from './body.ts'
import { Elysia } from 'elysia'
import type { Principal } from '../db/web-session-store.ts'
import { iso } from '../domain/time.ts'
import { idParam, requireAdmin } from './admin/guard.ts'
import { requireLoginToken } from './cli-login-token.ts'
import type { Deps } from './deps.ts'
import { doc } from './docs.ts'
import { HttpError, ok } from './envelope.ts'

/** docs/decisions.md (Dashboard and partner portal): a sign-in link works once, for 10 minutes. */
export const SIGN_IN_LINK_LIFETIME_MS = 10 * 60_000

/** Issues a one-time sign-in link for `who`: `url` absolute on PUBLIC_BASE_URL, and `expires_at`. */
export async function issueSignInLink(deps: Deps, who: Principal): Promise<{ url: string; expires_at: string }> {
  const { writer, stores } = deps.database
  const link = await writer.run(() => stores.webSessions.createSignInLink(who, deps.clock.now(), SIGN_IN_LINK_LIFETIME_MS))
  return { url: `${deps.config.publicBaseUrl}/sign-in/${link.token}`, expires_at: iso(link.expiresAt) }
}

/** The operator's dashboard and portal links, and the CLI's (`svc dashboard`). */
export function signInLinkRoutes(deps: Deps) {
  const { stores } = deps.database
  const admin = new Elysia({ name: 'admin-sign-in-links' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/accounts/:id/dashboard-link',
      async ({ params, body }) => {
        noBody(body)
        const account = stores.accounts.findAccount(idParam(params.id, 'Account'))
        if (!account) throw new HttpError(404, 'Account not found')
        if (account.suspended) throw new HttpError(403, 'Account is suspended')
        return ok(await issueSignInLink(deps, { kind: 'account', accountId: account.id }))
      },
      { detail: doc('A one-time dashboard sign-in link for an account (valid 10 minutes)', 'operator', { security: 'adminToken' }) },
    )
    .post(
      '/api/v1/admin/programs/:id/partners/:partner_id/portal-link',
      async ({ params, body }) => {
        noBody(body)
        const partner = stores.webSessions.findProgramPartner(idParam(params.id, 'Program'), idParam(params.partner_id, 'Partner'))
        if (!partner) throw new HttpError(404, 'Partner not found')
        return ok(await issueSignInLink(deps, { kind: 'partner', partnerId: partner.id }))
      },
      { detail: doc('A one-time partner portal sign-in link (valid 10 minutes)', 'operator', { security: 'adminToken' }) },
    )
  return new Elysia({ name: 'sign-in-links' }).use(admin).post(
    '/api/v1/cli/dashboard-link',
    async ({ request, body }) => {
      const account = requireLoginToken(deps, request, 'programs')
      noBody(body)
      return ok(await issueSignInLink(deps, { kind: 'account', accountId: account.id }))
    },
    { detail: doc('A one-time dashboard sign-in link for the logged-in account (valid 10 minutes)', 'cli', { security: 'loginToken' }) },
  )
}
