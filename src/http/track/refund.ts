import { recordRefund } from '../../tracking/refund.ts'
import { requireProgramKey } from '../pipeline/auth.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { directPost, type DirectRoute } from '../pipeline/direct.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { refund } from '../../domain/messages.ts'
import { RefundBody } from './schemas.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { RefundData, answer } from './answers.ts'

const check = bodyChecker(RefundBody)

/** POST /api/v1/track/refund: server only; refunds or charges back a sale of the key's program. */
export function trackRefundRoute(deps: Deps): DirectRoute {
  return directPost(
    'track-refund',
    '/api/v1/track/refund',
    async ({ body, request }) => {
      const { program } = requireProgramKey(deps, request, 'refund')
      const input = check(body)
      const outcome = await recordRefund(deps, program, {
        transactionId: input.transaction_id,
        reason: input.reason ?? 'refund',
        refundReason: input.refund_reason ?? null,
      })
      if (outcome.kind === 'not_found') throw new HttpError(404, refund.notFound)
      return ok({ sale_id: outcome.saleId, transaction_id: outcome.transactionId, status: outcome.status })
    },
    doc('Refund or charge back a sale; its commission is reversed', 'tracking', {
      body: RefundBody,
      answer: answer(RefundData),
      security: 'programKey',
      description:
        'Answers { data: { sale_id, transaction_id, status: "refunded" | "charged_back" }, error: null }; a repeated refund answers the recorded one and reverses nothing twice.',
    }),
  )
}
