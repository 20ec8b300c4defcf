import { Elysia } from 'elysia'
import { cliAuthRoutes } from './auth.ts'
import { cliDashboardLinkRoute } from './dashboard-link.ts'
import { cliLoginPage } from './login-page.ts'
import { cliProgramRoutes } from './programs.ts'
import { cliReviewRoutes } from './review.ts'
import { cliStatusRoutes } from './status.ts'
import { cliTestEventRoutes } from './test-event.ts'
import { cliWebhookRoutes } from './webhooks.ts'
import { cliImportRoutes } from './imports.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { shared } from '../../domain/messages.ts'

/** Every /api/v1/cli/* route of docs/api.md (Command-line routes), and the login page they link to. */
export function cliRoutes(deps: Deps) {
  return [
    cliAuthRoutes(deps),
    cliLoginPage(deps),
    cliProgramRoutes(deps),
    cliStatusRoutes(deps),
    cliTestEventRoutes(deps),
    cliDashboardLinkRoute(deps),
    cliWebhookRoutes(deps),
    cliImportRoutes(deps),
    cliReviewRoutes(deps),
    new Elysia().post(
      '/api/v1/cli/stripe-connect',
      () => {
        throw new HttpError(410, shared.stripeConnectRetired)
      },
      { detail: doc('Retired: connect the payment processor from the dashboard', 'cli', { description: 'Always answers 410 GoneError.' }) },
    ),
  ]
}
