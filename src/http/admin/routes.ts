import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { accountAdminRoutes } from './accounts'
import { linkAdminRoutes } from './links'
import { listAdminRoutes } from './lists'
import { payoutAdminRoutes } from './payouts'
import { programAdminRoutes } from './programs'
import { saleAdminRoutes } from './sale'

/** The operator API under /api/v1/admin (docs/decisions.md): the self-hosted owner's surface. */
export function adminRoutes(deps: Deps) {
  return new Elysia({ name: 'admin' })
    .use(accountAdminRoutes(deps))
    .use(programAdminRoutes(deps))
    .use(linkAdminRoutes(deps))
    .use(listAdminRoutes(deps))
    .use(saleAdminRoutes(deps))
    .use(payoutAdminRoutes(deps))
}
