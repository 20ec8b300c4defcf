import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import type { SessionOf } from '../../db/web-session-store.ts'
import { commissionStatuses } from '../../tracking/commission-status.ts'
import { notFound, pageKit, positiveId, whoOf } from './guard.ts'
import { page, seeOther } from './layout.ts'
import { portalPayouts } from './payouts.ts'
import { portalPage } from './portal-page.ts'
import { signedIn } from './session.ts'

/** The partner portal. */
export function portalRoutes(deps: Deps) {
  const { store } = pageKit(deps)
  return new Elysia({ name: 'portal' }).get(
    '/partner',
    ({ request, query }) => {
      const signed = signedIn(deps, request)
      if (signed?.session.kind !== 'partner') return seeOther('/sign-in')
      const { partnerId, programId } = signed.session as Extract<SessionOf, { kind: 'partner' }>
      const program = store.findProgramById(programId)
      const partner = store.findPartner(partnerId)
      if (!program || !partner) return notFound(signed)
      const figures = store.onePartnerFigures(programId, partnerId)
      const ledger = store.partnerCommissionsPage(partnerId, positiveId(query.cursor))
      const statuses = commissionStatuses(
        deps,
        programId,
        ledger.rows.map((r) => r.id),
      )
      return page(
        { title: 'Partner portal', who: whoOf(signed) },
        portalPage(program, partner, {
          links: store.partnerLinks(programId, partnerId),
          funnel: figures.funnel,
          money: figures.money,
          ledger,
          statusOf: (row) => (row.testMode ? 'test' : (statuses.get(row.id) ?? '')),
          payouts: portalPayouts(store.partnerPayouts(programId, partnerId)),
        }),
      )
    },
    { detail: { hide: true } },
  )
}
