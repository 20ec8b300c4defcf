import { Elysia } from 'elysia'
import { requireProgramKey } from '../pipeline/auth.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { ok } from '../pipeline/envelope.ts'

/** GET /api/v1/cli/status: the program behind the key, with its counts. */
export function cliStatusRoutes(deps: Deps) {
  const { accounts, counts } = deps.database.stores
  return new Elysia({ name: 'cli-status' }).get(
    '/api/v1/cli/status',
    ({ request }) => {
      const { program } = requireProgramKey(deps, request, 'cli')
      return ok({
        program_id: program.id,
        program_name: program.name,
        advertiser_id: program.advertiserId,
        account_id: accounts.accountOfAdvertiser(program.advertiserId),
        domain: program.domain,
        lead_auth: program.leadAuth,
        attribution_window_days: program.attributionWindowDays,
        ...counts.programCounts(program.id),
      })
    },
    {
      detail: doc('Status of the program behind the API key', 'cli', {
        security: 'programKey',
        description:
          'data: { program_id, program_name, advertiser_id, account_id, domain, lead_auth, attribution_window_days, ' +
          'live: Counts, test: Counts } where Counts is { clicks, leads, provisional_leads, sales, commissions }. ' +
          'Test-mode records (CLI test events, additional_data.test_mode) count only under test. No X-Request-ID header except on 500.',
      }),
    },
  )
}
