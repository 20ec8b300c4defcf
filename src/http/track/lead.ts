import { stateOf } from '../pipeline/request-state.ts'
import { programForBrowserLead, recordLead, type LeadOutcome } from '../../tracking/lead.ts'
import { optionalProgramKey } from '../pipeline/auth.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { directPost, type DirectRoute } from '../pipeline/direct.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { lead } from '../../domain/messages.ts'
import { guardOrigin, guardTestProgram, identifier, programIdOf } from './guards.ts'
import { LeadBody } from './schemas.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { LeadData, answer } from './answers.ts'

// Neither identifier can be read from a body that is no object: the message of "neither sent".
const check = bodyChecker(LeadBody, lead.identifierRequired)

/**
 * The answer to a lead outcome (docs/decisions.md: `{ data: { customer_id, status } }`, plus
 * `provisional: true` for a browser-mode lead under server_required), or the 400 of docs/errors.md.
 */
export function leadAnswer(outcome: LeadOutcome) {
  if (outcome.kind === 'recorded') {
    const { customerId, status, provisional } = outcome
    return ok({ customer_id: customerId, status, ...(provisional ? { provisional: true } : {}) })
  }
  if (outcome.reason === 'status_locked') throw new HttpError(400, lead.statusLocked(outcome.status))
  throw new HttpError(400, outcome.reason === 'other_program' ? lead.otherProgram : lead.customerNotFound)
}

/** POST /api/v1/track/lead: server mode with the program key, browser mode without one. */
export function trackLeadRoute(deps: Deps): DirectRoute {
  return directPost(
    'track-lead',
    '/api/v1/track/lead',
    async ({ body, request }) => {
      // An absent or empty Bearer token means browser mode; an unknown one is 401 (docs/errors.md).
      const key = optionalProgramKey(deps, request)
      const input = check(body)
      const clickId = identifier(input.click_id)
      const customerKey = identifier(input.customer_key)
      if (clickId === null && customerKey === null) throw new HttpError(400, lead.identifierRequired)
      const extra = input.additional_data
      let program = key?.program ?? null
      if (program) guardTestProgram(extra, program)
      else {
        // A browser-mode lead names its program through its click, or a test event's program_id:
        // additional_data.program_id is read in test mode only (docs/decisions.md, Hostile input).
        program = programForBrowserLead(deps, clickId, extra?.test_mode === true ? programIdOf(extra) : null)
        if (!program) throw new HttpError(400, lead.customerNotFound)
        guardOrigin(program, request)
      }
      const outcome = await recordLead(deps, program, {
        clickId,
        customerKey,
        email: identifier(input.email),
        testMode: extra?.test_mode === true,
        mode: key ? 'server' : 'browser',
        // A browser-mode lead comes from the customer's browser; a keyed one from the advertiser's server, whose IP says nothing of the customer.
        ip: key ? null : stateOf(request).ip,
      })
      return leadAnswer(outcome)
    },
    doc('Record a lead (signup)', 'tracking', {
      body: LeadBody,
      answer: answer(LeadData),
      security: 'programKey',
      optionalSecurity: true,
      description:
        'Bearer key optional: without one (browser mode) a program with lead_auth server_required records a provisional lead. Answers { data: { customer_id, status, provisional? }, error: null }.',
    }),
  )
}
