import { PAYOUT_METHOD_LABELS, PAYOUT_RAILS, type PayoutRail, RAIL_VARIABLES } from '../../domain/payout-method.ts'
import { planSend } from '../../payouts/send.ts'
import type { PayoutRow } from '../../db/dashboard-store.ts'
import type { Program } from '../../db/schema.ts'
import { balances, formatAmount } from '../../domain/payout.ts'
import { payoutsCsvText } from '../pipeline/csv.ts'
import { currenciesOf, payableBy, payoutFile } from '../../payouts/files.ts'
import type { Deps } from '../deps.ts'
import { DAY_MS } from '../../db/figure-store.ts'
import { money, when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { programHeader, type CommissionStatusTotals } from './owner-pages.ts'
import { PAYPAL_CURRENCIES } from '../../payouts/paypal.ts'

/**
 * Per partner and currency: what is pending (holding period), due, in a payout and paid
 * (docs/decisions.md, Payouts), from the payout store's grouped ledger and domain/payout.ts balances.
 */
export function commissionStatusTotals(deps: Deps, program: Program): Map<number, CommissionStatusTotals[]> {
  const groups = deps.database.stores.balances.ledgerGroups(program.id, deps.clock.now())
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
  const nextDue = new Map<number, Map<string, number>>()
  for (const row of deps.database.stores.balances.firstPendingDays(program.id, now)) {
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

const METHODS: Record<string, string> = PAYOUT_METHOD_LABELS

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

/**
 * The payouts CSV of the operator API (pending and paid), for the dashboard's download link; with
 * `format`, the provider's bulk-upload file of the pending payouts (src/payouts/files.ts).
 */
export function payoutsCsv(deps: Deps, program: Program, query: Record<string, string | undefined> = {}): Response {
  const headers = (filename: string) => ({
    'content-type': 'text/csv; charset=utf-8',
    'cache-control': 'no-store',
    'content-disposition': `attachment; filename="${filename}"`,
  })
  if (query.format !== undefined) {
    const file = payoutFile(
      deps.database.stores.payouts.payoutsWithPartners(program.id, ['pending']),
      program.name,
      query.format,
      query.currency,
    )
    if ('refused' in file) return new Response(file.refused, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } })
    return new Response(file.text, { headers: headers(file.filename) })
  }
  const rows = deps.database.stores.payouts.payoutsWithPartners(program.id, ['pending', 'paid'])
  return new Response(payoutsCsvText(rows), { headers: headers(`payouts-program-${program.id}.csv`) })
}

/** The bulk-upload files the pending payouts make: a PayPal file per currency, one Wise file. */
export function payoutFileLinks(deps: Deps, program: Program): { label: string; href: string }[] {
  const pending = deps.database.stores.payouts.payoutsWithPartners(program.id, ['pending'])
  const base = `/dashboard/programs/${program.id}/payouts.csv`
  // Only the currencies PayPal pays out: a file PayPal would refuse is not offered.
  const paypal = currenciesOf(payableBy('paypal', pending))
    .filter((c) => PAYPAL_CURRENCIES.has(c))
    .map((c) => ({
      label: `PayPal file (${c})`,
      href: `${base}?format=paypal&currency=${c}`,
    }))
  const wise = payableBy('wise', pending).length > 0 ? [{ label: 'Wise file', href: `${base}?format=wise` }] : []
  return [...paypal, ...wise]
}

/** What a "Send with …" button would send: per rail, how many pending payouts and their totals per currency. */
export interface SendOffer {
  rail: PayoutRail
  configured: boolean
  count: number
  totals: string[]
  /** Sends not answered yet after a failed attempt: the provider's last words, and when they are tried again. */
  waiting: { error: string; attempts: number; nextAt: number }[]
}

/** The offers of each rail for the program's pending payouts (nothing is written). */
export function sendOffers(deps: Deps, program: Program): SendOffer[] {
  const rows = deps.database.stores.payoutSends.pendingWithDetails(program.id)
  const open = deps.database.stores.payoutSends.openSends(program.id)
  return PAYOUT_RAILS.map((rail) => {
    const waiting = open
      .filter((s) => s.rail === rail && s.lastError !== null)
      .map((s) => ({ error: s.lastError!, attempts: s.attempts, nextAt: s.nextAttemptAt }))
    const configured = deps.payoutRails[rail]
    if (!configured) return { rail, configured: false, count: 0, totals: [], waiting }
    const { groups } = planSend(configured, rows)
    const byCurrency = new Map<string, number>()
    for (const g of groups) byCurrency.set(g.currency, (byCurrency.get(g.currency) ?? 0) + g.items.reduce((n, i) => n + i.amountCents, 0))
    return {
      rail,
      configured: true,
      count: groups.reduce((n, g) => n + g.items.length, 0),
      totals: [...byCurrency].map(([currency, cents]) => `${currency} ${formatAmount(cents, currency)}`),
      waiting,
    }
  })
}

/** The "Send with PayPal" / "Send with Stripe" buttons, each confirming the total per currency before it sends. */
function sendPanel(base: string, csrf: string, offers: SendOffer[]): Safe {
  return html`<section class="panel" id="send"><h2>Send payouts</h2>
<p class="muted">Pays the pending payouts of partners paid by PayPal or Stripe through the provider, exactly once: they show as processing, then paid or failed (a failed payout's commissions are due again). See docs/payouts.md.</p>
${offers.flatMap((o) =>
  o.waiting.map(
    (w) =>
      html`<p class="bad" role="alert">${PAYOUT_METHOD_LABELS[o.rail]} has not answered a send yet (${w.attempts} ${w.attempts === 1 ? 'try' : 'tries'}): ${w.error}. It is tried again from ${when(w.nextAt)} with the same key, so nothing is paid twice.</p>`,
  ),
)}
${offers.map((o) => {
  const label = PAYOUT_METHOD_LABELS[o.rail]
  if (!o.configured) return html`<p class="muted">${label}: not configured on this server (set ${RAIL_VARIABLES[o.rail]}).</p>`
  if (o.count === 0) return html`<p class="muted">${label}: nothing pending to send.</p>`
  const what = `${o.count} ${o.count === 1 ? 'payout' : 'payouts'}`
  return html`<form class="row" method="post" action="${base}/payouts/send" data-confirm="Send ${what} with ${label} now: ${o.totals.join(', ')}? This moves money.">${csrfField(csrf)}<input type="hidden" name="rail" value="${o.rail}"><button data-rail="${o.rail}">Send with ${label}</button><span class="muted">${what}: ${o.totals.join(', ')}</span></form>`
})}</section>`
}

/** GET /dashboard/programs/:id/payouts: run, mark paid, cancel, CSV. */
export function payoutsPage(
  program: Program,
  page: { rows: PayoutRow[]; next: string | null },
  csrf: string,
  owed: Owed[],
  files: { label: string; href: string }[] = [],
  offers: SendOffer[] = [],
): Safe {
  const base = `/dashboard/programs/${program.id}`
  const holding =
    program.holdingPeriodDays === 0
      ? 'as soon as'
      : `${program.holdingPeriodDays} ${program.holdingPeriodDays === 1 ? 'day' : 'days'} after`
  return html`${programHeader(program, '/payouts')}
${owedPanel(owed)}
<section class="panel"><h2>Run payouts</h2><p class="muted">Commissions are due ${holding} they are booked; a run makes one payout per partner and currency
whose due total is positive and at least ${program.minimumPayout} (major units)${Object.entries(program.minimumPayouts)
    .map(([c, m]) => `, ${c} ${m}`)
    .join('')}. Change both in <a href="${base}/settings">Settings</a>.</p>
<form class="row" method="post" action="${base}/payouts">${csrfField(csrf)}<label>Pay what is due up to (optional) <input type="date" name="until"></label><button>Run payouts</button></form>
<p><a href="${base}/payouts.csv" download>Download CSV</a> <span class="muted">(pending and paid payouts, for batch payment tools)</span></p>${
    files.length
      ? html`<p id="payout-files">Files for bulk upload: ${files.map((f, i) => html`${i ? ' · ' : ''}<a href="${f.href}" download>${f.label}</a>`)} <span class="muted">(pending payouts of partners paid that way)</span></p>`
      : ''
  }</section>
${sendPanel(base, csrf, offers)}
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
<td><b>${p.status}</b>${p.status === 'paid' ? html`<div class="muted">${when(p.paidAt)}${p.reference ? html` · ${p.reference}` : ''}</div>` : ''}${
    p.status === 'failed'
      ? html`<div class="bad">${p.failureReason ?? ''}</div><div class="muted">Its commissions are due again: the next run pays them.</div>`
      : ''
  }${p.status === 'processing' ? html`<div class="muted">being sent: paid or failed when the provider answers</div>` : ''}</td>
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
