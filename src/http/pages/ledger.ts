import { Elysia } from 'elysia'
import { parseCursor } from '../../db/dashboard-store.ts'
import type { TimeRange } from '../../db/list-store.ts'
import { minorDigitsOf } from '../../domain/commission.ts'
import type { CommissionStatus } from '../../domain/payout.ts'
import { commissionStatuses } from '../../tracking/commission-status.ts'
import { recordRefund } from '../../tracking/refund.ts'
import { recordSale, type SaleOutcome } from '../../tracking/sale.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { csvHeaders, type ExportName, exportCsv } from '../pipeline/exports.ts'
import { commissionStatusOf, timeRangeOf } from '../pipeline/filters.ts'
import { pageKit, positiveId, type Query } from './guard.ts'
import { html } from './html.ts'
import { commissionsPage, salesPage } from './ledger-pages.ts'
import * as owner from './owner-pages.ts'

/** The query's filters, or none (with the page's notice) when one is not a date or status. */
function filtersOf(query: Query): { range: TimeRange; status: CommissionStatus | undefined; bad: boolean } {
  try {
    return { range: timeRangeOf(query), status: commissionStatusOf(query), bad: false }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    return { range: {}, status: undefined, bad: true }
  }
}

/** An amount typed in major units ("49", "49.00"; "1200" VND) as minor units, or null. */
function amountOf(text: string, currency: string): number | null {
  const digits = minorDigitsOf(currency)
  const [whole = '', fraction = ''] = text.trim().split('.')
  if (!/^\d{1,13}$/.test(whole) || fraction.length > digits || !/^\d*$/.test(fraction)) return null
  const cents = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0')
  return cents > 0 && Number.isSafeInteger(cents) ? cents : null
}

/** The notice of a manual sale's outcome. */
const saleNotice: Record<SaleOutcome['kind'], string> = {
  recorded: 'sale_recorded',
  unattributed: 'sale_unattributed',
  commission_failed: 'sale_commission_failed',
  duplicate: 'sale_duplicate',
  too_large: 'sale_too_large',
  rejected: 'sale_rejected',
}

/** A program's sales, commission ledger and payment processors' events; the manual sale and refund; the CSV downloads. */
export function ledgerRoutes(deps: Deps) {
  const { store, stores, now, ownerPage, ownerPost, back } = pageKit(deps)
  const csv = (name: ExportName) =>
    ownerPage(({ program, query }) => {
      try {
        return new Response(exportCsv(deps, name, program.id, query), { headers: csvHeaders(name, program.id) })
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        return back(program, `/${name}`, 'dates_invalid', 'error')
      }
    }, 'Export')

  return new Elysia({ name: 'ledger' })
    .get(
      '/dashboard/programs/:id/sales',
      ownerPage(({ program, query, signed }) => {
        const { range, bad } = filtersOf(query)
        const page = store.salesPage(program.id, parseCursor(query.cursor), range)
        return html`${owner.notice(bad ? { error: 'dates_invalid' } : query)}${salesPage(program, page, {
          query,
          csrf: signed.csrf,
          partners: store.programPartners(program.id).filter((p) => p.status === 'active' && p.deletedAt === null),
        })}`
      }, 'Sales'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/commissions',
      ownerPage(({ program, query }) => {
        const { range, status, bad } = filtersOf(query)
        // A status is derived from the ledger: pages are read until one is full of matching entries.
        let cursor = parseCursor(query.cursor)
        const rows: ReturnType<typeof store.commissionsPage>['rows'] = []
        const statusById = new Map<number, string>()
        let more = false
        for (;;) {
          const chunk = store.commissionsPage(program.id, cursor, range, status ? 200 : 50)
          const statuses = commissionStatuses(
            deps,
            program.id,
            chunk.rows.map((r) => r.id),
          )
          for (const row of chunk.rows) {
            const of = statuses.get(row.id)
            if (status && of !== status) continue
            // One more match than a page: there is an older page.
            if (rows.length === 50) more = true
            if (more) break
            statusById.set(row.id, row.testMode ? 'test' : (of ?? ''))
            rows.push(row)
          }
          if (more || !chunk.next) break
          cursor = parseCursor(chunk.next)
        }
        const last = rows[rows.length - 1]
        const next = more && last ? `${last.createdAt}.${last.id}` : null
        return html`${bad ? owner.notice({ error: 'dates_invalid' }) : ''}${commissionsPage(
          program,
          { rows, next },
          { query, statusOf: (row) => statusById.get(row.id) ?? '' },
        )}`
      }, 'Commissions'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/sales',
      ownerPost(async ({ program, form }) => {
        const currency = form.currency ?? 'USD'
        const customerKey = (form.customer_key ?? '').trim()
        const amountCents = program.currencies.includes(currency) ? amountOf(form.amount ?? '', currency) : null
        const given = (form.transaction_id ?? '').trim()
        if (!customerKey || customerKey.length > 255 || amountCents === null || given.length > 255)
          return back(program, '/sales', 'sale_invalid', 'error')
        // A named partner must be an active partner of this program (docs/decisions.md, The first hour).
        const named = (form.partner_id ?? '') === '' ? null : positiveId(form.partner_id!)
        const partner = named === null ? null : stores.partners.find(program.id, named)
        if (form.partner_id && partner?.status !== 'active') return back(program, '/sales', 'sale_partner', 'error')
        const at = now()
        const outcome = await recordSale(deps, program, {
          transactionId: given || `manual_${at}_${Math.floor(Math.random() * 1e6)}`,
          amountCents,
          currency,
          occurredAt: at,
          customerKey,
          clickId: null,
          provider: 'manual',
          providerPaymentId: null,
          livemode: null,
          testMode: false,
          partnerId: partner?.id ?? null,
        })
        const ok = outcome.kind === 'recorded' || outcome.kind === 'unattributed'
        return back(program, '/sales', saleNotice[outcome.kind], ok ? 'done' : 'error')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/refunds',
      ownerPost(async ({ program, form }) => {
        const transactionId = (form.transaction_id ?? '').trim()
        const reason = form.reason === 'chargeback' ? 'chargeback' : 'refund'
        const note = (form.refund_reason ?? '').trim().slice(0, 1000) || null
        if (!transactionId || transactionId.length > 255) return back(program, '/sales', 'refund_missing', 'error')
        const outcome = await recordRefund(deps, program, { transactionId, reason, refundReason: note })
        if (outcome.kind === 'not_found') return back(program, '/sales', 'refund_missing', 'error')
        return back(program, '/sales', outcome.repeated ? 'refund_again' : 'refund_done')
      }),
      { detail: { hide: true } },
    )
    .get('/dashboard/programs/:id/sales.csv', csv('sales'), { detail: { hide: true } })
    .get('/dashboard/programs/:id/commissions.csv', csv('commissions'), { detail: { hide: true } })
    .get('/dashboard/programs/:id/partners.csv', csv('partners'), { detail: { hide: true } })
    .get(
      '/dashboard/programs/:id/events',
      ownerPage(
        ({ program, query }) => owner.eventsPage(program, store.eventsPage(program.id, parseCursor(query.cursor))),
        'Payment events',
      ),
      { detail: { hide: true } },
    )
}
