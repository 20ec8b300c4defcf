import { Elysia } from 'elysia'
import type { Counts, ReadinessFacts } from '../db/count-store.ts'
import type { ApiKey, Program } from '../db/schema.ts'
import { iso } from '../domain/time.ts'
import { requireProgramKey } from './auth.ts'
import type { Deps } from './deps.ts'
import { doc } from './docs.ts'
import { ok } from './envelope.ts'

interface Check {
  id: string
  ok: boolean
  message: string
}

/** The checklist of GET /api/v1/programs/me/readiness, in the order an integration gets through it. */
export function readinessChecks(program: Program, key: ApiKey, facts: ReadinessFacts): Check[] {
  const { live, test } = facts.counts
  const origins = [`https://${program.domain}`, `https://*.${program.domain}`, ...program.allowedOrigins]
  return [
    key.rotateBy === null
      ? { id: 'api_key', ok: true, message: 'The API key is valid.' }
      : {
          id: 'api_key',
          ok: false,
          message: `The API key is marked for rotation and stops working at ${iso(key.rotateBy)}; regenerate it: POST /api/v1/admin/programs/${program.id}/api-key (operator API).`,
        },
    { id: 'browser_origins', ok: program.domain !== '', message: `Browser calls are accepted from ${origins.join(', ')}.` },
    facts.activeLinks > 0
      ? { id: 'active_link', ok: true, message: `${facts.activeLinks} active partner link(s).` }
      : { id: 'active_link', ok: false, message: 'No active referral link with a partner: create a partner and a link.' },
    {
      id: 'first_click',
      ok: live.clicks > 0,
      message: live.clicks > 0 ? 'Clicks received.' : 'No live click yet: load the tracker on a page opened with ?aff=<short_link>.',
    },
    {
      id: 'first_lead',
      ok: live.leads > 0,
      message:
        live.leads > 0
          ? 'Leads received.'
          : live.provisional_leads > 0
            ? 'Only provisional (browser-mode) leads: report signups from the server with the API key.'
            : 'No live lead yet: report signups to POST /api/v1/track/lead.',
    },
    {
      id: 'first_sale',
      ok: live.sales > 0 || facts.processorEvents > 0,
      message:
        live.sales > 0 || facts.processorEvents > 0
          ? 'Sales or payment-processor events received.'
          : 'No live sale yet: report payments to POST /api/v1/track/sale or connect the payment processor.',
    },
    {
      id: 'live_data',
      ok: live.clicks + live.leads + live.sales > 0,
      message:
        live.clicks + live.leads + live.sales > 0
          ? 'Live data is flowing.'
          : test.clicks + test.leads + test.sales > 0
            ? 'Only test-mode data so far.'
            : 'No data yet.',
    },
  ]
}

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
