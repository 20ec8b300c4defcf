import type { PayoutRow } from '../../db/dashboard-store.ts'
import type { Program } from '../../db/schema.ts'
import { balances, dueCutoffs } from '../../domain/payout.ts'
import { payoutsCsvText } from '../pipeline/csv.ts'
import type { Deps } from '../deps.ts'
import { money, when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { programHeader, type CommissionStatusTotals } from './owner-pages.ts'

/**
 * Per partner and currency: what is pending (holding period), due, in a payout and paid
 * (docs/decisions.md, Payouts), from the payout store's grouped ledger and domain/payout.ts balances.
 */
export function commissionStatusTotals(deps: Deps, program: Program): Map<number, CommissionStatusTotals[]> {
  const groups = deps.database.stores.payouts.ledgerGroups(program.id, dueCutoffs(program.holdingPeriodDays, deps.clock.now()))
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
export function payoutsPage(program: Program, page: { rows: PayoutRow[]; next: string | null }, csrf: string): Safe {
  const base = `/dashboard/programs/${program.id}`
  return html`${programHeader(program, '/payouts')}
<section class="panel"><h2>Run payouts</h2><p class="muted">Commissions are due ${program.holdingPeriodDays} day(s) after they are booked; a run makes one payout per partner and currency
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
