import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { activityRoutes } from './activity.ts'
import { favicon, script, stylesheet } from './assets.ts'
import { notFound } from './guard.ts'
import { groupRoutes } from './group-routes.ts'
import { ledgerRoutes } from './ledger.ts'
import { partnerRoutes } from './partner-routes.ts'
import { payoutRoutes } from './payout-routes.ts'
import { portalRoutes } from './portal.ts'
import { connectStripeRoutes } from './connect-stripe.ts'
import { programRoutes } from './program-routes.ts'
import { reviewRoutes } from './review.ts'
import { signedIn } from './session.ts'
import { signInRoutes } from './sign-in.ts'
import { statementRoutes } from './statements.ts'
import { teamRoutes } from './team.ts'
import { verifyRoutes } from './verify.ts'
import { webhookRoutes } from './webhook-routes.ts'
import { importRoutes } from './import-routes.ts'

const asset = (body: string, type: string) => () =>
  new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' } })

/** The dashboard, the partner portal, sign-in and sign-out: HTML pages over the src/db stores. */
export function webRoutes(deps: Deps) {
  return [
    new Elysia()
      .get('/assets/dashboard.css', asset(stylesheet, 'text/css; charset=utf-8'), { detail: { hide: true } })
      .get('/assets/dashboard.js', asset(script, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
      .get('/assets/favicon.svg', asset(favicon, 'image/svg+xml'), { detail: { hide: true } }),
    signInRoutes(deps),
    programRoutes(deps),
    partnerRoutes(deps),
    groupRoutes(deps),
    ledgerRoutes(deps),
    reviewRoutes(deps),
    payoutRoutes(deps),
    portalRoutes(deps),
    connectStripeRoutes(deps),
    webhookRoutes(deps),
    importRoutes(deps),
    statementRoutes(deps),
    teamRoutes(deps),
    activityRoutes(deps),
    verifyRoutes(deps),
    new Elysia()
      .get('/dashboard/*', ({ request }) => notFound(signedIn(deps, request) ?? undefined), { detail: { hide: true } })
      .get('/partner/*', ({ request }) => notFound(signedIn(deps, request) ?? undefined), { detail: { hide: true } }),
  ]
}
