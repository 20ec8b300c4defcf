import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { parseCursor } from '../../db/dashboard-store.ts'
import { commissionStatuses } from '../../tracking/commission-status.ts'
import { pageKit } from './guard.ts'
import * as owner from './owner-pages.ts'

/** A program's sales, commission ledger and Stripe events. */
export function ledgerRoutes(deps: Deps) {
  const { store, ownerPage } = pageKit(deps)
  return new Elysia({ name: 'ledger' })
    .get(
      '/dashboard/programs/:id/sales',
      ownerPage(({ program, query }) => owner.salesPage(program, store.salesPage(program.id, parseCursor(query.cursor))), 'Sales'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/commissions',
      ownerPage(({ program, query }) => {
        const ledger = store.commissionsPage(program.id, parseCursor(query.cursor))
        const statuses = commissionStatuses(
          deps,
          program.id,
          ledger.rows.map((r) => r.id),
        )
        return owner.commissionsPage(program, ledger, (row) => (row.testMode ? 'test' : (statuses.get(row.id) ?? '')))
      }, 'Commissions'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/events',
      ownerPage(
        ({ program, query }) => owner.eventsPage(program, store.eventsPage(program.id, parseCursor(query.cursor))),
        'Stripe events',
      ),
      { detail: { hide: true } },
    )
}
