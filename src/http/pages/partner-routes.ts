import { isPayoutMethod, payoutDetailsProblem } from '../../domain/payout-method.ts'
import { Elysia } from 'elysia'
import type { PartnerChanges } from '../../db/partner-store.ts'
import type { PartnerGroup, Program } from '../../db/schema.ts'
import { termsFor } from '../../domain/attribution.ts'
import { COMMISSION_TYPES, rateFits } from '../../domain/commission.ts'
import { isEmail } from '../../domain/email.ts'
import { changePartnerStatus, deletePartner, partnerCreated, type StatusAction } from '../../tracking/partner-status.ts'
import { issueSignInLink } from '../../tracking/sign-in-link.ts'
import type { Deps } from '../deps.ts'
import { partnerFilterOf } from '../pipeline/filters.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { type Form, notFound, pageKit, positiveId, whoOf } from './guard.ts'
import { html } from './html.ts'
import { page, seeOther } from './layout.ts'
import * as owner from './owner-pages.ts'
import { applicationsPage, partnerPage, partnersPage } from './partner-pages.ts'
import { commissionStatusTotals } from './payouts.ts'
import { updatePartnerInUnit } from '../../tracking/partner-update.ts'

/** Each status action and the notice it leaves. */
const ACTIONS: Record<StatusAction, string> = {
  approve: 'partner_approved',
  reject: 'partner_rejected',
  suspend: 'partner_suspended',
  unsuspend: 'partner_unsuspended',
}

/** The edit form's fields as partner changes; an empty term puts the program's back. Null when a field is refused. */
function changesOf(form: Form, program: Program, groups: PartnerGroup[]): { changes: PartnerChanges } | { refused: string } {
  const text = (name: string) => (form[name] ?? '').trim()
  const name = text('name')
  const email = text('email')
  if (name.length > 200) return { refused: 'partner_name_invalid' }
  if (email && !isEmail(email)) return { refused: 'partner_email_invalid' }
  const type = text('commission_type')
  const commissionType = type === '' ? null : (COMMISSION_TYPES.find((t) => t === type) ?? undefined)
  if (commissionType === undefined) return { refused: 'partner_terms_invalid' }
  const rateText = text('commission_rate')
  const rate = rateText === '' ? null : Number(rateText)
  const groupText = text('group_id')
  const group = groupText === '' ? null : groups.find((g) => String(g.id) === groupText)
  if (group === undefined) return { refused: 'partner_group_invalid' }
  // The rate it will be paid at (partner → group → program) with the type it will be paid by.
  const terms = termsFor(program, { commissionType, commissionRate: rate, recurringMonths: null }, group)
  if (!rateFits(terms.commissionType, terms.commissionRate)) return { refused: 'partner_rate_invalid' }
  const monthsText = text('recurring_months')
  const months = monthsText === '' ? null : Number(monthsText)
  if (months !== null && !(Number.isInteger(months) && months >= 1 && months <= 1200)) return { refused: 'partner_months_invalid' }
  const method = text('payout_method')
  if (method !== '' && !isPayoutMethod(method)) return { refused: 'partner_payout_invalid' }
  const details = text('payout_details')
  if (details.length > 1000 || (method !== '' && payoutDetailsProblem(method, details) !== null))
    return { refused: 'partner_payout_invalid' }
  return {
    changes: {
      name: name || null,
      email: email || null,
      commissionType,
      commissionRate: rate,
      recurringMonths: months,
      payoutMethod: method === '' ? null : method,
      payoutDetails: details || null,
      groupId: group?.id ?? null,
    },
  }
}

/** A short link already taken: the unit that made the partner is rolled back with it. */
class LinkTaken extends Error {}

/** A program's partners and their referral links: the list, one partner's page and every form. */
export function partnerRoutes(deps: Deps) {
  const { writer, stores, store, now, ownerPage, ownerPost, back } = pageKit(deps)
  const partnerBack = (programId: number, partnerId: number, notice: string, kind: 'done' | 'error' = 'done') =>
    seeOther(`/dashboard/programs/${programId}/partners/${partnerId}?${kind}=${notice}`)
  const ownPartner = (programId: number, value: string | undefined) => {
    const id = positiveId(value)
    return id === null ? null : stores.partners.find(programId, id)
  }

  return new Elysia({ name: 'partners' })
    .get(
      '/dashboard/programs/:id/partners',
      ownerPage(({ program, signed, query }) => {
        let filter: ReturnType<typeof partnerFilterOf>
        try {
          filter = partnerFilterOf(query)
        } catch (error) {
          if (!(error instanceof HttpError)) throw error
          filter = {}
        }
        return html`${owner.notice(query)}${partnersPage(program, {
          partners: stores.partners.withLinks(program.id, filter),
          groups: stores.groups.list(program.id),
          links: store.programLinks(program.id).filter((l) => l.partnerId === null || stores.partners.find(program.id, l.partnerId)),
          figures: stores.figures.partnerFigures(program.id),
          statuses: commissionStatusTotals(deps, program),
          csrf: signed.csrf,
          query,
          preselect: positiveId(query.partner),
        })}`
      }, 'Partners'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners',
      ownerPost(async ({ program, form }) => {
        const name = (form.name ?? '').trim()
        const email = (form.email ?? '').trim()
        const shortLink = (form.short_link ?? '').trim()
        if (!name || name.length > 200 || (email && !isEmail(email))) return back(program, '/partners', 'partner_invalid', 'error')
        if (shortLink !== '' && !/^[A-Za-z0-9_-]{1,100}$/.test(shortLink)) return back(program, '/partners', 'short_link_invalid', 'error')
        // The partner and its first link in one unit: a taken short link makes neither.
        const made = await writer
          .run(() => {
            const id = store.createPartner(program.id, name, email || null, now())
            partnerCreated(deps, program.id, id)
            if (shortLink !== '' && store.createLink(program.id, id, shortLink, now()).kind === 'taken') throw new LinkTaken()
            return id
          })
          .catch((error: unknown) => {
            if (error instanceof LinkTaken) return null
            throw error
          })
        if (made === null) return back(program, '/partners', 'short_link_taken', 'error')
        if (shortLink !== '') return back(program, '/partners', 'partner_and_link_created')
        // The link form below chooses the partner just made.
        return seeOther(`/dashboard/programs/${program.id}/partners?done=partner_created&partner=${made}#create-link`)
      }),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/partners/:partner_id',
      ownerPage(({ program, signed, params, query }) => {
        const partner = ownPartner(program.id, params.partner_id)
        if (!partner) return notFound(signed)
        return html`${owner.notice(query)}${partnerPage(program, {
          partner,
          links: store.partnerLinks(program.id, partner.id),
          coupons: stores.coupons.ofPartner(partner.id),
          groups: stores.groups.list(program.id),
          figures: stores.figures.partnerFigures(program.id).get(partner.id) ?? null,
          statuses: commissionStatusTotals(deps, program).get(partner.id) ?? [],
          csrf: signed.csrf,
        })}`
      }, 'Partner'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/applications',
      ownerPage(
        ({ program, signed, query }) =>
          html`${owner.notice(query)}${applicationsPage(program, {
            pending: stores.partners.page(program.id, { status: 'pending' }, 500, null),
            csrf: signed.csrf,
            mail: deps.mail.delivery,
            joinUrl: `${deps.config.publicBaseUrl}/join/${program.id}`,
          })}`,
        'Applications',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id',
      ownerPost(async ({ by, program, params, form, signed }) => {
        const partner = ownPartner(program.id, params.partner_id)
        if (!partner) return notFound(signed)
        const read = changesOf(form, program, stores.groups.list(program.id))
        if ('refused' in read) return partnerBack(program.id, partner.id, read.refused, 'error')
        await writer.run(() => updatePartnerInUnit(deps, by, program.id, partner.id, read.changes))
        return partnerBack(program.id, partner.id, 'partner_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/status',
      ownerPost(async ({ by, program, params, form, signed }) => {
        const partner = ownPartner(program.id, params.partner_id)
        const action = (Object.keys(ACTIONS) as StatusAction[]).find((a) => a === form.action)
        if (!partner || !action) return notFound(signed)
        const reason = (form.reason ?? '').trim().slice(0, 1000) || null
        const change = await changePartnerStatus(deps, by, program.id, partner.id, action, { mail: deps.mail, reason })
        const toList = form.back === 'applications'
        if (change.kind !== 'ok')
          return toList
            ? back(program, '/applications', 'status_conflict', 'error')
            : partnerBack(program.id, partner.id, 'status_conflict', 'error')
        return toList ? back(program, '/applications', ACTIONS[action]) : partnerBack(program.id, partner.id, ACTIONS[action])
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/delete',
      ownerPost(async ({ by, program, params, signed }) => {
        const partner = ownPartner(program.id, params.partner_id)
        if (!partner) return notFound(signed)
        const removed = await deletePartner(deps, by, program.id, partner.id)
        if (removed === 'has_sales') return partnerBack(program.id, partner.id, 'partner_has_sales', 'error')
        return back(program, '/partners', 'partner_deleted')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/links',
      ownerPost(async ({ program, form }) => {
        const shortLink = (form.short_link ?? '').trim()
        const partnerId = positiveId(form.partner_id)
        if (!/^[A-Za-z0-9_-]{1,100}$/.test(shortLink)) return back(program, '/partners', 'short_link_invalid', 'error')
        if (partnerId === null || !stores.partners.find(program.id, partnerId)) return back(program, '/partners', 'no_partner', 'error')
        const made = await writer.run(() => store.createLink(program.id, partnerId, shortLink, now()))
        if (made.kind === 'taken') return back(program, '/partners', 'short_link_taken', 'error')
        if (made.kind === 'no_partner') return back(program, '/partners', 'no_partner', 'error')
        return back(program, '/partners', 'link_created')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/links/:link_id/active',
      ownerPost(async ({ program, form, params }) => {
        const linkId = positiveId(params.link_id)
        const active = form.active === 'true'
        const changed = linkId !== null && (await writer.run(() => store.setLinkActive(program.id, linkId, active)))
        if (!changed) return back(program, '/partners', 'link_missing', 'error')
        // A link turned off answers 410 from the next click on; the form says which page to go back to.
        const partnerId = positiveId(form.back)
        const notice = active ? 'link_on' : 'link_off'
        return partnerId === null ? back(program, '/partners', notice) : partnerBack(program.id, partnerId, notice)
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/portal-link',
      ownerPost(async ({ program, params, signed }) => {
        const partner = ownPartner(program.id, params.partner_id)
        if (!partner) return notFound(signed)
        const link = await issueSignInLink(deps, deps.config.publicBaseUrl, { kind: 'partner', partnerId: partner.id })
        return page({ title: 'Portal link', who: whoOf(signed) }, owner.portalLinkPage(program, partner, link))
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/coupons',
      ownerPost(async ({ program, params, signed, form }) => {
        const partner = ownPartner(program.id, params.partner_id)
        if (!partner) return notFound(signed)
        const code = (form.code ?? '').trim()
        const promotion = (form.stripe_promotion_code ?? '').trim()
        if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return partnerBack(program.id, partner.id, 'coupon_code_invalid', 'error')
        if (promotion !== '' && !/^promo_[A-Za-z0-9]{1,249}$/.test(promotion))
          return partnerBack(program.id, partner.id, 'coupon_promotion_invalid', 'error')
        const created = await writer.run(() =>
          stores.coupons.create({
            programId: program.id,
            partnerId: partner.id,
            code,
            stripePromotionCode: promotion || null,
            createdAt: now(),
          }),
        )
        if (created === 'taken') return partnerBack(program.id, partner.id, 'coupon_taken', 'error')
        return partnerBack(program.id, partner.id, 'coupon_created')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/coupons/:coupon_id/delete',
      ownerPost(async ({ program, params, signed }) => {
        const id = positiveId(params.coupon_id)
        const coupon = id === null ? null : stores.coupons.find(id)
        if (!coupon || coupon.programId !== program.id) return notFound(signed)
        await writer.run(() => stores.coupons.remove(coupon.id))
        return partnerBack(program.id, coupon.partnerId, 'coupon_deleted')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/sign-out',
      ownerPost(async ({ program, params, signed }) => {
        const partner = ownPartner(program.id, params.partner_id)
        if (!partner) return notFound(signed)
        await writer.run(() => stores.webSessions.revokeAllOf({ kind: 'partner', partnerId: partner.id }, now()))
        return partnerBack(program.id, partner.id, 'partner_signed_out')
      }),
      { detail: { hide: true } },
    )
}
