import { trackClick, type ClickRefusal } from '../../tracking/click.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { directPost, type DirectRoute } from '../pipeline/direct.ts'
import { acceptedBody } from '../pipeline/body.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { click } from '../../domain/messages.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { guardOrigin, guardTestProgram } from './guards.ts'
import { ClickBody } from './schemas.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { knownProgramKey } from '../pipeline/auth.ts'
import { ClickAnswer } from './answers.ts'

const check = bodyChecker(ClickBody)

// docs/errors.md, Track click 400 table, and the 410 of the typed envelope with top-level success/message.
const failures = {
  invalid_url: () => new HttpError(400, click.urlInvalid),
  no_aff: () => new HttpError(400, click.noAff),
  not_found: () => new HttpError(400, click.linkNotFound),
  misconfigured: () => new HttpError(400, click.linkMisconfigured),
  disabled: () =>
    new HttpError(410, click.linkDisabled, {
      typed: true,
      code: 'link_disabled',
      extra: { hint: click.linkDisabledHint },
      top: { success: false, message: click.linkDisabled },
    }),
}

/** The HttpError of a refused click, for the route and for synthetic test events (issue 4). */
export function clickFailure(reason: ClickRefusal): HttpError {
  return failures[reason]()
}

/** A present affiliate_url that is not a string cannot be parsed as a URL. */
function checked(received: unknown) {
  const body = acceptedBody(received)
  const url = (body as { affiliate_url?: unknown } | null)?.affiliate_url
  if (url !== undefined && url !== null && typeof url !== 'string') throw clickFailure('invalid_url')
  return check(body)
}

/** POST /api/v1/track/click: browser-callable, no key; logs a click for the link's partner. */
export function trackClickRoute(deps: Deps): DirectRoute {
  return directPost(
    'track-click',
    '/api/v1/track/click',
    async ({ body, request }) => {
      const key = knownProgramKey(deps, request)
      const input = checked(body)
      const outcome = await trackClick(
        deps,
        {
          affiliateUrl: input.affiliate_url,
          clickId: input.click_id ?? null,
          testMode: input.additional_data?.test_mode === true,
          ip: stateOf(request).ip,
          userAgent: request.headers.get('user-agent'),
        },
        (program) => {
          guardOrigin(program, request)
          // Only a known key is checked against program_id: an unknown token is ignored on click (browser mode).
          guardTestProgram(input.additional_data, key?.program ?? null)
        },
      )
      if (outcome.kind === 'refused') throw clickFailure(outcome.reason)
      return { success: true, click_id: outcome.clickId, cookie_window_days: outcome.windowDays }
    },
    doc('Record a click on a referral link', 'tracking', {
      body: ClickBody,
      answer: ClickAnswer,
      security: 'programKey',
      optionalSecurity: true,
      description:
        'Answers { success: true, click_id, cookie_window_days }. A click_id the program issued before is repeated (first click wins); an inactive link answers 410 link_disabled and records nothing.',
    }),
  )
}
