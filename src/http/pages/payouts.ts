import type { PayoutRow } from '../../db/dashboard-store.ts'
import type { Program } from '../../db/schema.ts'
import { balances } from '../../domain/payout.ts'
import { payoutsCsvText } from '../pipeline/csv.ts'
import type { Deps } from '../deps.ts'
import { DAY_MS } from '../../db/figure-store.ts'
import { money, when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { programHeader, type CommissionStatusTotals } from './owner-pages.ts'

/**
 * Per partner and currency: what is pending (holding period), due, in a payout and paid
 * (docs/decisions.md, Payouts), from the payout store's grouped ledger and domain/payout.ts balances.
 */
export function commissionStatusTotals(deps: Deps, program: Program): Map<number, CommissionStatusTotals[]> {
  const groups = deps.database.stores.payouts.ledgerGroups(program.id, deps.clock.now())
  const out = new Map<number, CommissionStatusTotals[]>()
  for (const b of balances(groups)) {
    const totals = {
      currency: b.currency,
      pendingCents: b.pending,
      dueCents: b.due,
      inPayoutCents: b.inPayout,
      paidCents: b.paid,
      heldCents: b.held,
    }
    out.set(b.partnerId, [...(out.get(b.partnerId) ?? []), totals])
  }
  return out
}

/** A partner who is owed something: what is due now, what is pending and when it becomes due, and how they are paid. */
export interface Owed {
  partnerId: number
  name: string
  payoutMethod: string | null
  totals: CommissionStatusTotals[]
  /** Per currency, when the oldest pending commission becomes due (epoch ms). */
  nextDue: Map<string, number>
}

/**
 * Who is owed what, for the Payouts page (docs/decisions.md, The first hour): each partner with
 * money due or pending, when the pending part becomes due, and their payout method, with a
 * warning where they have none yet.
 */
export function owedRows(deps: Deps, program: Program): Owed[] {
  const now = deps.clock.now()
  const totals = commissionStatusTotals(deps, program)
  const cutoffDay = Math.floor(now / DAY_MS)
  const nextDue = new Map<number, Map<string, number>>()
  for (const row of deps.database.stores.payouts.firstPendingDays(program.id, cutoffDay)) {
    const byCurrency = nextDue.get(row.partnerId) ?? new Map<string, number>()
    byCurrency.set(row.currency, row.day * DAY_MS)
    nextDue.set(row.partnerId, byCurrency)
  }
  return deps.database.stores.dashboard
    .programPartners(program.id)
    .map((p) => ({
      partnerId: p.id,
      name: p.name ?? `Partner #${p.id}`,
      payoutMethod: p.payoutMethod,
      totals: (totals.get(p.id) ?? []).filter((t) => t.dueCents > 0 || t.pendingCents > 0),
      nextDue: nextDue.get(p.id) ?? new Map(),
    }))
    .filter((o) => o.totals.length > 0)
}

const METHODS: Record<string, string> = { paypal: 'PayPal', bank: 'Bank transfer' }

function owedPanel(owed: Owed[]): Safe {
  if (owed.length === 0)
    return html`<section class="panel" id="owed"><h2>Who is owed</h2><p class="muted">Nobody is owed anything yet.</p></section>`
  const missing = owed.filter((o) => o.payoutMethod === null).length
  return html`<section class="panel" id="owed"><h2>Who is owed</h2>${
    missing > 0
      ? html`<p class="bad" role="alert">${missing === 1 ? '1 partner has' : `${missing} partners have`} no payout details yet: they add them under "Payout details" in their partner portal.</p>`
      : ''
  }<table><thead><tr><th>Partner</th><th class="n">Due now</th><th class="n">Pending</th><th class="hide-narrow">Paid with</th></tr></thead><tbody>${owed.map(
    (o) => {
      const method = o.payoutMethod ? (METHODS[o.payoutMethod] ?? o.payoutMethod) : html`<span class="bad">⚠ not given</span>`
      // On a phone the method goes under the name: a fourth column would scroll out of view.
      return html`<tr data-owed="${o.partnerId}"><td class="owed-name">${o.name}<div class="show-narrow muted">paid with ${method}</div></td>
<td class="n">${o.totals.map((t) => html`<span class="amount">${money(t.dueCents, t.currency)}</span>`)}</td>
<td class="n">${o.totals.map((t) => {
        const next = o.nextDue.get(t.currency)
        return html`<span class="amount">${money(t.pendingCents, t.currency)}${t.pendingCents > 0 && next ? html`<span class="muted"> · due from ${dateOf(next)}</span>` : ''}</span>`
      })}</td>
<td class="hide-narrow">${method}</td></tr>`
    },
  )}</tbody></table></section>`
}

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The payouts CSV of the operator API (pending and paid), for the dashboard's download link. */
export function payoutsCsv(deps: Deps, program: Program): Response {
  const rows = deps.database.stores.payouts.payoutsWithPartners(program.id, ['pending', 'paid'])
  return new Response(payoutsCsvText(rows), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'cache-control': 'no-store',
      'content-disposition': `attachment; filename="payouts-program-${program.id}.csv"`,
    },
  })
}

/** GET /dashboard/programs/:id/payouts: run, mark paid, cancel, CSV. */
export function payoutsPage(program: Program, page: { rows: PayoutRow[]; next: string | null }, csrf: string, owed: Owed[]): Safe {
  const base = `/dashboard/programs/${program.id}`
  const holding =
    program.holdingPeriodDays === 0
      ? 'as soon as'
      : `${program.holdingPeriodDays} ${program.holdingPeriodDays === 1 ? 'day' : 'days'} after`
  return html`${programHeader(program, '/payouts')}
${owedPanel(owed)}
<section class="panel"><h2>Run payouts</h2><p class="muted">Commissions are due ${holding} they are booked; a run makes one payout per partner and currency
whose due total is positive and at least ${program.minimumPayout} (major units). Change both in <a href="${base}/settings">Settings</a>.</p>
<form class="row" method="post" action="${base}/payouts">${csrfField(csrf)}<label>Pay what is due up to (optional) <input type="date" name="until"></label><button>Run payouts</button></form>
<p><a href="${base}/payouts.csv" download>Download CSV</a> <span class="muted">(pending and paid payouts, for batch payment tools)</span></p></section>
<section class="panel"><h2>Payouts</h2>${
    page.rows.length === 0
      ? html`<p class="muted">No payout yet.</p>`
      : html`<table><thead><tr>
<th>Payout</th><th>Partner</th><th class="n">Amount</th><th>Status</th><th></th></tr></thead><tbody>
${page.rows.map(
  (
    p,
  ) => html`<tr data-payout="${p.id}"><td>#${p.id}<div class="muted">${when(p.createdAt)} · ${p.commissions} ${p.commissions === 1 ? 'entry' : 'entries'}</div></td>
<td>${p.partnerName ?? `#${p.partnerId}`}</td><td class="n">${money(p.amountCents, p.currency)}</td>
<td><b>${p.status}</b>${p.status === 'paid' ? html`<div class="muted">${when(p.paidAt)}${p.reference ? html` · ${p.reference}` : ''}</div>` : ''}</td>
<td>${
    p.status === 'pending'
      ? html`<form class="row" method="post" action="${base}/payouts/${p.id}/paid">${csrfField(csrf)}<input name="reference" placeholder="payment reference" maxlength="500" aria-label="Payment reference"><button>Mark paid</button></form>
<form method="post" action="${base}/payouts/${p.id}/cancel">${csrfField(csrf)}<button class="quiet">Cancel</button></form>`
      : ''
  }</td></tr>`,
)}</tbody></table>`
  }
${page.next ? html`<p><a href="${base}/payouts?cursor=${page.next}" rel="next">Older</a></p>` : ''}</section>`
}

/** The portal's payouts section: one partner's own pending and paid payouts. */
export function portalPayouts(
  rows: {
    id: number
    currency: string
    amountCents: number
    status: string
    reference: string | null
    createdAt: number
    paidAt: number | null
  }[],
): Safe {
  return html`<section class="panel"><h2>Payouts</h2>${
    rows.length === 0
      ? html`<p class="muted">No payout yet.</p>`
      : html`<table><thead><tr><th>Payout</th><th class="n">Amount</th><th>Status</th></tr></thead><tbody>
${rows.map(
  (
    p,
  ) => html`<tr data-payout="${p.id}"><td>#${p.id} <span class="muted">${when(p.createdAt)}</span></td><td class="n">${money(p.amountCents, p.currency)}</td>
<td>${p.status}${p.paidAt ? html` <span class="muted">${when(p.paidAt)}${p.reference ? ` · ${p.reference}` : ''}</span>` : ''}</td></tr>`,
)}</tbody></table>`
  }</section>`
}
