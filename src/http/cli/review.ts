import { Elysia } from 'elysia'
import { FLAG_EXPLANATIONS } from '../../domain/fraud.ts'
import { presentRow } from '../../domain/record.ts'
import { reviewCommission } from '../../tracking/review.ts'
import type { Deps } from '../deps.ts'
import { keyActorOf, requireManageKey } from '../pipeline/auth.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { RejectCommission, rejection, reviewed } from '../pipeline/review.ts'
import { review as messages } from '../../domain/messages.ts'

/** A commission id of the path; anything else is no commission of the program (404). */
function commissionIdOf(value: string): number {
  const id = Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, messages.notFound)
  return id
}

/**
 * `svc review list|approve|reject` (docs/cli.md): the key's program's commissions held for review,
 * and their review, as the operator API's, scoped by the program key instead of the admin token.
 */
export function cliReviewRoutes(deps: Deps) {
  const { sales } = deps.database.stores
  const security = 'programKey' as const
  return new Elysia({ name: 'cli-review' })
    .get(
      '/api/v1/cli/review',
      ({ request }) => {
        const { program } = requireManageKey(deps, request)
        const held = sales.heldPage(program.id, 200, null).slice(0, 200)
        return ok(
          held.map(({ partnerName, partnerEmail, transactionId, saleAmountCents, ...entry }) => ({
            ...presentRow('commission', entry),
            status: 'held',
            partner_name: partnerName,
            partner_email: partnerEmail,
            transaction_id: transactionId,
            sale_amount_cents: saleAmountCents,
            reasons: entry.flags.map((flag) => FLAG_EXPLANATIONS[flag]),
          })),
        )
      },
      { detail: doc("The key's program's commissions held for review (the newest 200), each flag in words", 'cli', { security }) },
    )
    .post(
      '/api/v1/cli/commissions/:id/approve',
      async ({ request, params }) => {
        const match = requireManageKey(deps, request)
        const by = keyActorOf(match, request)
        return reviewed(await reviewCommission(deps, by, match.program.id, commissionIdOf(params.id), { action: 'approve' }))
      },
      { detail: doc('Approve a held commission of the key’s program', 'cli', { security }) },
    )
    .post(
      '/api/v1/cli/commissions/:id/reject',
      async ({ request, params, body }) => {
        const match = requireManageKey(deps, request)
        const by = keyActorOf(match, request)
        return reviewed(await reviewCommission(deps, by, match.program.id, commissionIdOf(params.id), rejection(body)))
      },
      {
        detail: doc('Reject a held commission of the key’s program: a reversal entry is written', 'cli', {
          security,
          body: RejectCommission,
        }),
      },
    )
}
