import { Elysia } from 'elysia'
import { cliAuthRoutes } from './cli-auth.ts'
import { cliLoginPage } from './cli-login-page.ts'
import { cliProgramRoutes } from './cli-programs.ts'
import { cliStatusRoutes } from './cli-status.ts'
import { cliTestEventRoutes } from './cli-test-event.ts'
import type { Deps } from './deps.ts'
import { doc } from './docs.ts'
import { HttpError } from './envelope.ts'
import { shared } from './messages.ts'

/** Every /api/v1/cli/* route of docs/api.md (Command-line routes), and the login page they link to. */
export function cliRoutes(deps: Deps) {
  return new Elysia({ name: 'cli' })
    .use(cliAuthRoutes(deps))
    .use(cliLoginPage(deps))
    .use(cliProgramRoutes(deps))
    .use(cliStatusRoutes(deps))
    .use(cliTestEventRoutes(deps))
    .post(
      '/api/v1/cli/stripe-connect',
      () => {
        throw new HttpError(410, shared.stripeConnectRetired)
      },
      { detail: doc('Retired: connect the payment processor from the dashboard', 'cli', { description: 'Always answers 410 GoneError.' }) },
    )
}
