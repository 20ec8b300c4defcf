import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { DAY_MS } from '../../db/figure-store.ts'
import { cancelPayout, markPayoutPaid } from '../../tracking/payout-paid.ts'
import { runPayouts } from '../../tracking/payout-run.ts'
import { pageKit, positiveId } from './guard.ts'
import { html } from './html.ts'
import { seeOther } from './layout.ts'
import * as owner from './owner-pages.ts'
import { owedRows, payoutFileLinks, payoutsCsv, payoutsPage, sendOffers } from './payouts.ts'
import { isPayoutRail } from '../../domain/payout-method.ts'
import { recordSends } from '../../payouts/send.ts'

/** A program's payouts: the list, the CSV, a run, paid and cancel. */
export function payoutRoutes(deps: Deps) {
  const { store, ownerPage, ownerPost, back } = pageKit(deps)
  return new Elysia({ name: 'payouts' })
    .get(
      '/dashboard/programs/:id/payouts',
      ownerPage(({ program, signed, query }) => {
        const cursor = positiveId(query.cursor)
        return html`${owner.notice(query)}${payoutsPage(program, store.payoutsPage(program.id, cursor), signed.csrf, owedRows(deps, program), payoutFileLinks(deps, program), sendOffers(deps, program))}`
      }, 'Payouts'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/payouts.csv',
      ownerPage(({ program, query }) => payoutsCsv(deps, program, query), 'Payouts'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/payouts',
      ownerPost(async ({ by, program, form }) => {
        const value = (form.until ?? '').trim()
        // A date pays what is due by the end of that day (UTC).
        const until =
          value === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? Date.parse(value) + DAY_MS - 1 : NaN
        if (Number.isNaN(until)) return back(program, '/payouts', 'until_invalid', 'error')
        const created = (await runPayouts(deps, by, program.id, until))?.length ?? 0
        if (created === 0) return back(program, '/payouts', 'payouts_none')
        return seeOther(`/dashboard/programs/${program.id}/payouts?done=payouts_run&count=${created}`)
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/payouts/send',
      // docs/decisions.md, Turn 4: only the owner sends payouts (ownerPost: the owner's session).
      ownerPost(async ({ by, program, form }) => {
        const rail = isPayoutRail(form.rail) ? deps.payoutRails[form.rail] : undefined
        if (!rail) return back(program, '/payouts', 'payouts_rail_off', 'error')
        const plan = await recordSends(deps, by, rail, program.id)
        const count = plan.groups.reduce((n, g) => n + g.items.length, 0)
        if (count === 0) return back(program, '/payouts', 'payouts_send_none', 'error')
        deps.payoutSender.wake()
        return seeOther(`/dashboard/programs/${program.id}/payouts?done=payouts_sent&count=${count}#send`)
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/payouts/:payout_id/paid',
      ownerPost(async ({ by, program, form, params }) => {
        const payoutId = positiveId(params.payout_id)
        const reference = (form.reference ?? '').trim().slice(0, 500) || null
        const change = payoutId === null ? null : await markPayoutPaid(deps, deps.mail, by, payoutId, reference, program.id)
        if (!change || change.kind === 'not_found') return back(program, '/payouts', 'payout_missing', 'error')
        return back(program, '/payouts', change.kind === 'ok' ? 'payout_paid' : 'payout_conflict', change.kind === 'ok' ? 'done' : 'error')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/payouts/:payout_id/cancel',
      ownerPost(async ({ by, program, params }) => {
        const payoutId = positiveId(params.payout_id)
        const change = payoutId === null ? null : await cancelPayout(deps, by, payoutId, program.id)
        if (!change || change.kind === 'not_found') return back(program, '/payouts', 'payout_missing', 'error')
        return back(
          program,
          '/payouts',
          change.kind === 'ok' ? 'payout_canceled' : 'payout_conflict',
          change.kind === 'ok' ? 'done' : 'error',
        )
      }),
      { detail: { hide: true } },
    )
}
