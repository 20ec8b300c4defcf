import type { Route } from './route-table.ts'

// The dashboard's and the partner portal's rows of the route table (route-table.ts spreads them
// in): HTML pages and forms (src/http/pages), read as forms and not in the API document.

const page: Route = { envelope: 'none', reads: 'form' }
/**
 * The dashboard's pages and forms by the least role that uses them (docs/decisions.md, Teams and
 * the audit log): a viewer reads every page, an admin does all but the Team page, and only the
 * owner regenerates the key (Turn 4, settled) and manages the team.
 */
const viewer: Route = { ...page, role: 'viewer' }
const admin: Route = { ...page, role: 'admin' }
const owner: Route = { ...page, role: 'owner' }

/** The page routes by "METHOD /path", as src/http/pages registers them. */
export const pageRows: Record<string, Route> = {
  'GET /': page,
  'GET /setup': page,
  'POST /setup': page,
  'GET /join/:program_id': page,
  'POST /join/:program_id': page,
  'GET /sign-in': page,
  'POST /sign-in': page,
  'GET /partner/sign-in': page,
  'POST /partner/sign-in': page,
  'GET /sign-in/:token': page,
  'POST /sign-in/:token': page,
  'GET /sign-out': page,
  'POST /sign-out': page,
  'GET /dashboard': viewer,
  'POST /dashboard/programs': admin,
  'GET /dashboard/programs/:id': viewer,
  'GET /dashboard/programs/:id/partners': viewer,
  'GET /dashboard/programs/:id/applications': viewer,
  'POST /dashboard/programs/:id/partners': admin,
  'POST /dashboard/programs/:id/links': admin,
  'POST /dashboard/programs/:id/links/:link_id/active': admin,
  'POST /dashboard/programs/:id/partners/:partner_id/portal-link': admin,
  'POST /dashboard/programs/:id/partners/:partner_id/sign-out': admin,
  'POST /dashboard/programs/:id/partners/:partner_id/coupons': admin,
  'POST /dashboard/programs/:id/coupons/:coupon_id/delete': admin,
  'GET /dashboard/programs/:id/partners/:partner_id': viewer,
  'POST /dashboard/programs/:id/partners/:partner_id': admin,
  'POST /dashboard/programs/:id/partners/:partner_id/status': admin,
  'POST /dashboard/programs/:id/partners/:partner_id/delete': admin,
  'GET /dashboard/programs/:id/sales': viewer,
  'POST /dashboard/programs/:id/sales': admin,
  'POST /dashboard/programs/:id/refunds': admin,
  'GET /dashboard/programs/:id/sales.csv': viewer,
  'GET /dashboard/programs/:id/commissions.csv': viewer,
  'GET /dashboard/programs/:id/partners.csv': viewer,
  'GET /dashboard/programs/:id/commissions': viewer,
  'GET /dashboard/programs/:id/review': viewer,
  'POST /dashboard/programs/:id/review/:commission_id': admin,
  'GET /dashboard/programs/:id/events': viewer,
  'GET /dashboard/programs/:id/payouts': viewer,
  'GET /dashboard/programs/:id/webhooks': viewer,
  'POST /dashboard/programs/:id/webhooks': admin,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/test': admin,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/retry': admin,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/active': admin,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/secret': admin,
  'POST /dashboard/programs/:id/webhooks/:webhook_id/delete': admin,
  'GET /dashboard/programs/:id/payouts.csv': viewer,
  'POST /dashboard/programs/:id/payouts': admin,
  'POST /dashboard/programs/:id/payouts/send': owner,
  'POST /dashboard/programs/:id/payouts/:payout_id/paid': admin,
  'POST /dashboard/programs/:id/payouts/:payout_id/cancel': admin,
  'GET /dashboard/programs/:id/settings': viewer,
  'POST /dashboard/programs/:id/settings': admin,
  'POST /dashboard/programs/:id/settings/origins': admin,
  'POST /dashboard/programs/:id/settings/stripe': admin,
  'POST /dashboard/programs/:id/settings/processor': admin,
  'POST /dashboard/programs/:id/settings/api-key': owner,
  'POST /dashboard/programs/:id/settings/api-key/rotation': admin,
  'POST /dashboard/programs/:id/settings/keys': admin,
  'POST /dashboard/programs/:id/settings/keys/:key_id/delete': admin,
  'GET /dashboard/team': owner,
  'POST /dashboard/team': owner,
  'POST /dashboard/team/:member_id/role': owner,
  'POST /dashboard/team/:member_id/remove': owner,
  'GET /dashboard/programs/:id/activity': viewer,
  'GET /partner': page,
  'GET /partner/statements/:file': page,
  'GET /verify': page,
  'POST /partner/payout-details': page,
  'POST /partner/stripe/connect': page,
  'GET /partner/stripe/return': page,
  'GET /dashboard/*': viewer,
  'GET /partner/*': page,
}
