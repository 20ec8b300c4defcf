import { isPayoutMethod, payoutDetailsProblem } from '../../domain/payout-method.ts'
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import type { SessionOf } from '../../db/web-session-store.ts'
import { commissionStatuses } from '../../tracking/commission-status.ts'
import { type Form, forbidden, notFound, pageKit, positiveId, whoOf } from './guard.ts'
import { notice, referralUrl } from './owner-pages.ts'
import { page, seeOther } from './layout.ts'
import { portalPayouts } from './payouts.ts'
import { portalPage } from './portal-page.ts'
import { sameSitePost, signedIn } from './session.ts'
import { updatePartnerInUnit } from '../../tracking/partner-update.ts'
import { partnerActor } from '../../domain/audit.ts'
import { stateOf } from '../pipeline/request-state.ts'

/** The partner portal. */
export function portalRoutes(deps: Deps) {
  const { writer, stores, store } = pageKit(deps)
  return new Elysia({ name: 'portal' })
    .get(
      '/partner',
      async ({ request, query }) => {
        const signed = signedIn(deps, request)
        if (signed?.session.kind !== 'partner') return seeOther('/partner/sign-in')
        const { partnerId, programId } = signed.session as Extract<SessionOf, { kind: 'partner' }>
        const program = store.findProgramById(programId)
        const partner = store.findPartner(partnerId)
        if (!program || !partner) return notFound(signed)
        const figures = stores.figures.onePartnerFigures(programId, partnerId)
        const links = store.partnerLinks(programId, partnerId)
        // A QR code per link, drawn here as SVG (nothing is loaded from elsewhere); the library is
        // loaded with the first portal page, not at start (issue 36).
        const { default: QRCode } = await import('qrcode')
        const qr = new Map(
          await Promise.all(
            links.map(async (l) => [l.id, await QRCode.toString(referralUrl(program, l), { type: 'svg', margin: 1, width: 176 })] as const),
          ),
        )
        const ledger = store.partnerCommissionsPage(partnerId, positiveId(query.cursor))
        const statuses = commissionStatuses(
          deps,
          programId,
          ledger.rows.map((r) => r.id),
        )
        return page(
          { title: 'Partner portal', who: whoOf(signed) },
          portalPage(program, partner, {
            links,
            qr,
            funnel: figures.funnel,
            money: figures.money,
            ledger,
            statusOf: (row) => (row.testMode ? 'test' : (statuses.get(row.id) ?? '')),
            payouts: portalPayouts(store.partnerPayouts(programId, partnerId)),
            csrf: signed.csrf,
            // The payout details form's answer stands in its own section, where the page scrolls to (#payout-details).
            ...(String(query.done ?? query.error ?? '').startsWith('payout_details')
              ? { payoutNotice: notice(query) }
              : { notice: notice(query) }),
            months: statementMonths(partner.createdAt, deps.clock.now()),
            coupons: stores.coupons.ofPartner(partnerId),
            stripeConnect: deps.config.stripe !== null,
            group: partner.groupId === null ? null : stores.groups.find(partner.groupId, programId),
          }),
        )
      },
      { detail: { hide: true } },
    )
    .post(
      '/partner/payout-details',
      async ({ request, body }) => {
        const form = (body ?? {}) as Form
        const signed = signedIn(deps, request)
        if (signed?.session.kind !== 'partner') return seeOther('/partner/sign-in')
        if (!sameSitePost(deps, request, signed, form)) return forbidden(deps.config.publicBaseUrl)
        const { partnerId, programId } = signed.session as Extract<SessionOf, { kind: 'partner' }>
        const method = form.payout_method ?? ''
        const details = (form.payout_details ?? '').trim()
        // docs/decisions.md, Paying partners: the form takes all four methods. A typed acct_… only
        // says where the partner's own money goes; "Connect with Stripe" hands out an onboarding
        // link only for an account Stripe says was made for this partner (src/payouts/stripe-connect.ts).
        if (!isPayoutMethod(method) || payoutDetailsProblem(method, details) !== null)
          return seeOther('/partner?error=payout_details_invalid#payout-details')
        const by = { actor: partnerActor(partnerId), ip: stateOf(request).ip }
        await writer.run(() => updatePartnerInUnit(deps, by, programId, partnerId, { payoutMethod: method, payoutDetails: details }))
        return seeOther('/partner?done=payout_details_saved#payout-details')
      },
      { detail: { hide: true } },
    )
}

/** The months from the partner's first to now (UTC, YYYY-MM), newest first: two years at most. */
function statementMonths(since: number, now: number): string[] {
  const months: string[] = []
  const at = new Date(now)
  const first = new Date(since)
  let year = at.getUTCFullYear()
  let month = at.getUTCMonth()
  while (months.length < 24 && (year > first.getUTCFullYear() || (year === first.getUTCFullYear() && month >= first.getUTCMonth()))) {
    months.push(`${year}-${String(month + 1).padStart(2, '0')}`)
    if (--month < 0) [year, month] = [year - 1, 11]
  }
  return months
}
