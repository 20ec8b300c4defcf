import type { Deps } from '../deps.ts'
import { accountAdminRoutes } from './accounts.ts'
import { auditAdminRoutes } from './audit.ts'
import { memberAdminRoutes } from './members.ts'
import { couponAdminRoutes } from './coupons.ts'
import { keyAdminRoutes } from './keys.ts'
import { emailAdminRoutes } from './emails.ts'
import { webhookAdminRoutes } from './webhooks.ts'
import { importAdminRoutes } from './imports.ts'
import { exportAdminRoutes } from './exports.ts'
import { groupAdminRoutes } from './groups.ts'
import { bonusAdminRoutes } from './bonuses.ts'
import { linkAdminRoutes } from './links.ts'
import { listAdminRoutes } from './lists.ts'
import { partnerAdminRoutes } from './partners.ts'
import { payoutAdminRoutes } from './payouts.ts'
import { programAdminRoutes } from './programs.ts'
import { reviewAdminRoutes } from './review.ts'
import { saleAdminRoutes } from './sale.ts'
import { statementAdminRoutes } from './statements.ts'

/** The operator API under /api/v1/admin (docs/decisions.md): the self-hosted owner's surface. */
export function adminRoutes(deps: Deps) {
  return [
    accountAdminRoutes(deps),
    programAdminRoutes(deps),
    partnerAdminRoutes(deps),
    linkAdminRoutes(deps),
    listAdminRoutes(deps),
    saleAdminRoutes(deps),
    payoutAdminRoutes(deps),
    exportAdminRoutes(deps),
    emailAdminRoutes(deps),
    webhookAdminRoutes(deps),
    statementAdminRoutes(deps),
    couponAdminRoutes(deps),
    keyAdminRoutes(deps),
    reviewAdminRoutes(deps),
    memberAdminRoutes(deps),
    auditAdminRoutes(deps),
    groupAdminRoutes(deps),
    bonusAdminRoutes(deps),
    importAdminRoutes(deps),
  ]
}
