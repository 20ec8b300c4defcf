import { PAYOUT_STATUSES } from '../../domain/payout-method.ts'
import { noBody } from '../pipeline/body.ts'
import { Elysia } from 'elysia'
import type { PayoutChange, PayoutStatus } from '../../db/payout-store.ts'
import type { Payout } from '../../db/schema.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { payout as messages } from '../../domain/messages.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { payoutsCsvText } from '../pipeline/csv.ts'
import { idParam, listed, page, requireAdmin, operatorActor } from './guard.ts'
import { cancelPayout, markPayoutPaid } from '../../tracking/payout-paid.ts'
import { runPayouts } from '../../tracking/payout-run.ts'
import { presentRow } from '../../domain/record.ts'
import { MarkPaid, RunPayouts, SendPayouts } from './schemas.ts'
import { sendPayouts } from './send-payouts.ts'
import { payoutFile } from '../../payouts/files.ts'

const checkRun = bodyChecker(RunPayouts)
const checkPaid = bodyChecker(MarkPaid)
const checkSend = bodyChecker(SendPayouts)
const STATUSES: readonly PayoutStatus[] = PAYOUT_STATUSES
/** An ISO 8601 date or date-time as epoch ms; the 400 naming `until` otherwise. */
function untilOf(value: string | undefined, now: number): number {
  if (value === undefined) return now
  const ms = Date.parse(value)
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(value) || Number.isNaN(ms)) throw new HttpError(400, messages.until)
  return ms
}

/** `?status=` of the CSV: one status or several separated by commas; pending and paid when absent. */
function statusesOf(value: string | undefined): PayoutStatus[] {
  if (value === undefined) return ['pending', 'paid']
  const statuses = value.split(',').map((s) => s.trim())
  if (!statuses.every((s): s is PayoutStatus => (STATUSES as string[]).includes(s))) throw new HttpError(400, messages.csvStatus)
  return statuses
}

/** A payout as the operator API shows it (docs/decisions.md, Payouts: payout_id, partner_id, currency, amount_cents, …). */
export const presentPayout = (payout: Payout) => presentRow('payout', payout)

function changed(change: PayoutChange, conflict: string) {
  if (change.kind === 'not_found') throw new HttpError(404, messages.notFound)
  if (change.kind === 'conflict')
    throw new HttpError(
      409,
      change.payout.status === 'processing' ? messages.processing : change.payout.status === 'failed' ? messages.failed : conflict,
    )
  return ok(presentPayout(change.payout))
}

/** The operator API's payouts (docs/decisions.md, Payouts): runs, listing, detail, paid, cancel, CSV. */
export function payoutAdminRoutes(deps: Deps) {
  const store = deps.database.stores.payouts
  const security = 'adminToken' as const
  const programOf = (id: string) => {
    const programId = idParam(id, 'Program')
    const terms = store.findTerms(programId)
    if (!terms) throw new HttpError(404, messages.programNotFound)
    return { programId, terms }
  }

  return (
    new Elysia({ name: 'admin-payouts' })
      .onBeforeHandle(({ request }) => requireAdmin(deps, request))
      .post(
        '/api/v1/admin/programs/:id/payouts',
        async ({ request, params, body, set }) => {
          const programId = idParam(params.id, 'Program')
          const input = checkRun(body)
          programOf(params.id)
          const created = await runPayouts(deps, operatorActor(request), programId, untilOf(input.until, deps.clock.now()))
          if (!created) throw new HttpError(404, 'Program not found')
          set.status = 201
          return ok(created.map(presentPayout))
        },
        {
          detail: doc('Run payouts: one per partner and currency whose due net is positive and at least minimum_payout', 'operator', {
            security,
            body: RunPayouts,
          }),
        },
      )
      .post(
        '/api/v1/admin/programs/:id/payouts/send',
        async ({ params, body, set, request }) => {
          const { programId } = programOf(params.id)
          const input = checkSend(body)
          const plan = await sendPayouts(deps, operatorActor(request), programId, input.rail, input.payout_ids)
          set.status = 202
          return ok({ sending: plan.groups.reduce((n, g) => n + g.items.length, 0), skipped: plan.skipped })
        },
        {
          detail: doc(
            'Send pending payouts through PayPal or Stripe: they become processing, then paid or failed (docs/payouts.md); payouts of partners paid otherwise, or in a currency the rail cannot pay, stay pending and are listed in skipped',
            'operator',
            { security, body: SendPayouts },
          ),
        },
      )
      .get(
        '/api/v1/admin/programs/:id/payouts',
        ({ params, query }) => {
          const { programId } = programOf(params.id)
          const { limit, cursor } = page(query)
          return listed(store.listPayouts(programId, limit, cursor), limit, presentPayout)
        },
        { detail: doc('Payouts of a program, newest first', 'operator', { security }) },
      )
      .get(
        '/api/v1/admin/programs/:id/payouts.csv',
        ({ params, query, set }) => {
          const { programId } = programOf(params.id)
          set.headers['content-type'] = 'text/csv; charset=utf-8'
          if (query.format !== undefined) {
            // docs/decisions.md, Paying partners: the providers' bulk-upload files, of pending payouts only.
            const name = deps.database.stores.programs.findProgram(programId)?.name ?? ''
            const file = payoutFile(store.payoutsWithPartners(programId, ['pending']), name, query.format, query.currency)
            if ('refused' in file) throw new HttpError(400, file.refused)
            set.headers['content-disposition'] = `attachment; filename="${file.filename}"`
            return file.text
          }
          const rows = store.payoutsWithPartners(programId, statusesOf(query.status))
          set.headers['content-disposition'] = `attachment; filename="payouts-program-${programId}.csv"`
          return payoutsCsvText(rows)
        },
        {
          detail: doc(
            'Payouts as CSV for batch payment tools (default: pending and paid); ?format=paypal or wise: the pending payouts of partners paid that way, as the provider uploads them',
            'operator',
            { security },
          ),
        },
      )
      // A list of one, like GET /programs/:id (docs/decisions.md: "a list of one payout with its ledger entries").
      .get(
        '/api/v1/admin/payouts/:id',
        ({ params }) => {
          const payout = store.findPayout(idParam(params.id, 'Payout'))
          if (!payout) throw new HttpError(404, messages.notFound)
          const entries = store.entriesOf(payout.id).map((e) => presentRow('commission', e))
          return { data: [{ ...presentPayout(payout), entries }], error: null, next_cursor: null }
        },
        { detail: doc('Show a payout with its ledger entries, as a list of one', 'operator', { security }) },
      )
      .post(
        '/api/v1/admin/payouts/:id/paid',
        async ({ request, params, body }) => {
          const id = idParam(params.id, 'Payout')
          const { reference } = checkPaid(body)
          const change = await markPayoutPaid(deps, deps.mail, operatorActor(request), id, reference ?? null)
          return changed(change, messages.canceledCannotPay)
        },
        {
          detail: doc('Mark a payout paid, with the payment reference; repeating it answers the same payout', 'operator', {
            security,
            body: MarkPaid,
          }),
        },
      )
      .post(
        '/api/v1/admin/payouts/:id/cancel',
        async ({ request, params, body }) => {
          noBody(body)
          const id = idParam(params.id, 'Payout')
          const change = await cancelPayout(deps, operatorActor(request), id)
          return changed(change, messages.paidCannotCancel)
        },
        { detail: doc('Cancel a pending payout: its entries are due again (a paid payout answers 409)', 'operator', { security }) },
      )
  )
}
