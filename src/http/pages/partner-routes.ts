import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { issueSignInLink } from '../../tracking/sign-in-link.ts'
import { notFound, pageKit, positiveId, whoOf } from './guard.ts'
import { html } from './html.ts'
import { page } from './layout.ts'
import * as owner from './owner-pages.ts'
import { commissionStatusTotals } from './payouts.ts'

/** A program's partners and their referral links. */
export function partnerRoutes(deps: Deps) {
  const { writer, stores, store, now, ownerPage, ownerPost, back } = pageKit(deps)
  return new Elysia({ name: 'partners' })
    .get(
      '/dashboard/programs/:id/partners',
      ownerPage(
        ({ program, signed, query }) =>
          html`${owner.notice(query)}${owner.partnersPage(program, {
            partners: store.programPartners(program.id),
            links: store.programLinks(program.id),
            figures: store.partnerFigures(program.id),
            csrf: signed.csrf,
            statuses: commissionStatusTotals(deps, program),
          })}`,
        'Partners',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners',
      ownerPost(async ({ program, form }) => {
        const name = (form.name ?? '').trim()
        const email = (form.email ?? '').trim()
        if (!name || name.length > 200 || (email && (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))))
          return back(program, '/partners', 'partner_invalid', 'error')
        await writer.run(() => store.createPartner(program.id, name, email || null, now()))
        return back(program, '/partners', 'partner_created')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/links',
      ownerPost(async ({ program, form }) => {
        const shortLink = (form.short_link ?? '').trim()
        const partnerId = positiveId(form.partner_id)
        if (!/^[A-Za-z0-9_-]{1,100}$/.test(shortLink)) return back(program, '/partners', 'short_link_invalid', 'error')
        if (partnerId === null) return back(program, '/partners', 'no_partner', 'error')
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
        // A link turned off answers 410 from the next click on.
        return back(program, '/partners', active ? 'link_on' : 'link_off')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/portal-link',
      ownerPost(async ({ program, params, signed }) => {
        const partnerId = positiveId(params.partner_id)
        const partner = partnerId === null ? null : store.findPartner(partnerId)
        if (!partner || partner.programId !== program.id) return notFound(signed)
        const link = await issueSignInLink(deps, deps.config.publicBaseUrl, { kind: 'partner', partnerId: partner.id })
        return page({ title: 'Portal link', who: whoOf(signed) }, owner.portalLinkPage(program, partner, link))
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/sign-out',
      ownerPost(async ({ program, params, signed }) => {
        const partnerId = positiveId(params.partner_id)
        const partner = partnerId === null ? null : store.findPartner(partnerId)
        if (!partner || partner.programId !== program.id) return notFound(signed)
        await writer.run(() => stores.webSessions.revokeAllOf({ kind: 'partner', partnerId: partner.id }, now()))
        return back(program, '/partners', 'partner_signed_out')
      }),
      { detail: { hide: true } },
    )
}
