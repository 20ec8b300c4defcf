import { t } from 'elysia'
import { review as messages } from '../../domain/messages.ts'
import type { ReviewDecision, ReviewOutcome } from '../../tracking/review.ts'
import { HttpError, ok } from './envelope.ts'
import { bodyChecker } from './validate.ts'

// Commission review as the operator API and the CLI answer it (docs/decisions.md, Fraud signals and review).

export const RejectCommission = t.Object({
  reason: t.Optional(t.String({ maxLength: 500, error: messages.reason, description: 'Why it was rejected, kept with the commission' })),
})
const checkReject = bodyChecker(RejectCommission)

/** A review's answer: the commission (200), an unknown one 404, one that is not held 409. */
export function reviewed(outcome: ReviewOutcome) {
  if (outcome.kind === 'not_found') throw new HttpError(404, messages.notFound)
  if (outcome.kind === 'not_held') throw new HttpError(409, messages.notHeld)
  return ok(outcome.commission)
}

/** The reject body's decision: an optional reason (a blank one is none); no body at all is fine. */
export function rejection(body: unknown): ReviewDecision {
  const reason = body === undefined || body === null || body === '' ? undefined : checkReject(body).reason
  return { action: 'reject', reason: reason?.trim() || null }
}
