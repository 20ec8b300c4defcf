import { Elysia } from 'elysia'
import type { Counts } from '../../db/count-store.ts'
import { readinessChecks } from '../../domain/readiness.ts'
import { requireProgramKey } from '../pipeline/auth.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { ok } from '../pipeline/envelope.ts'

const withoutCommissions = ({ commissions: _, ...counts }: Counts) => counts

/** GET /api/v1/programs/me/readiness: a computed readiness check for the key's program. */
export function readinessRoutes(deps: Deps) {
  return new Elysia({ name: 'readiness' }).get(
    '/api/v1/programs/me/readiness',
    ({ request }) => {
      const { program, key } = requireProgramKey(deps, request, 'readiness')
      const facts = deps.database.stores.counts.readinessFacts(program.id)
      const checks = readinessChecks(program, key, facts)
      // The same counts as GET /api/v1/cli/status, without commissions (docs/decisions.md, Success bodies).
      const { live, test } = facts.counts
      return ok({
        program_id: program.id,
        ready: checks.every((c) => c.ok),
        checks,
        counts: { live: withoutCommissions(live), test: withoutCommissions(test), processor_events: facts.processorEvents },
      })
    },
    {
      detail: doc("Readiness checklist of the key's program", 'tracking', {
        security: 'programKey',
        description:
          'Answers { data: { program_id, ready, checks: [{ id, ok, message }], counts: { live, test, processor_events } }, error: null }. Checks: api_key, browser_origins, active_link, first_click, first_lead, first_sale, live_data. Errors use the typed envelope (invalid_key 401, internal_error 500 with retry_after_seconds 10).',
      }),
    },
  )
}
