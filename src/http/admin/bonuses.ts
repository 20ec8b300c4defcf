import { Elysia } from 'elysia'
import { group as messages, money, partner } from '../../domain/messages.ts'
import { bookBonus } from '../../tracking/bonus.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, operatorActor, requireAdmin } from './guard.ts'
import { CreateBonus } from './schemas.ts'

const checkCreate = bodyChecker(CreateBonus)

/** The operator API's bonuses (docs/decisions.md, Groups: bonuses): a one-off ledger entry for a partner. */
export function bonusAdminRoutes(deps: Deps) {
  return new Elysia({ name: 'admin-bonuses' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/partners/:partner_id/bonuses',
      async ({ params, body, set, request }) => {
        const programId = idParam(params.id, 'Program')
        const partnerId = idParam(params.partner_id, 'Partner')
        const input = checkCreate(body)
        const booked = await bookBonus(deps, operatorActor(request), programId, partnerId, {
          amountCents: input.amount_cents,
          currency: input.currency.toUpperCase(),
          description: input.description.trim(),
        })
        if (booked.kind === 'not_found') throw new HttpError(404, booked.what === 'program' ? 'Program not found' : partner.notFound)
        if (booked.kind === 'currency') throw new HttpError(400, messages.bonusCurrency)
        if (booked.kind === 'too_large') throw new HttpError(400, money.balance(input.currency.toUpperCase()))
        set.status = 201
        return ok(booked.data)
      },
      {
        detail: doc(
          'Book a bonus for a partner: a ledger entry of kind bonus, pending for the holding period like a commission, then paid out',
          'operator',
          { security: 'adminToken', body: CreateBonus },
        ),
      },
    )
}
