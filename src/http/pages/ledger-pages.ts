import type { LedgerRow, Paged, SaleRow } from '../../db/dashboard-store.ts'
import type { Program } from '../../db/schema.ts'
import { money, when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { programHeader } from './owner-pages.ts'

type Query = Record<string, string | undefined>
type Record_ = Record<string, unknown>

const day = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : null)

/**
 * An attribution record (the sale's "why this partner") in words: how the customer was found,
 * which click and link, whether the window was checked, and what the commission paid and why.
 */
export function attributionInWords(record: Record_ | null): string {
  if (!record) return 'No record.'
  if (record.rule === 'unattributed') return `Recorded without a partner: the customer (found by ${record.resolved_by}) has none.`
  const parts: string[] = []
  const by = record.resolved_by === 'customer_key' ? 'its customer key' : 'the click id'
  parts.push(
    `First click wins: the customer was found by ${by}; their first click${day(record.clicked_at) ? ` on ${day(record.clicked_at)}` : ''} came through link #${record.link_id ?? '?'} of partner #${record.partner_id}.`,
  )
  const window = (record.window ?? {}) as Record_
  if (window.checked === true) {
    parts.push(`It was within the ${record.window_days}-day window of the ${window.measured_to === 'signup' ? 'signup' : 'payment'}.`)
  } else if (window.why === 'customer already converted') {
    parts.push('The customer had bought before, so the window was not checked again.')
  }
  const commission = (record.commission ?? {}) as Record_
  const terms = commission.terms === 'partner' ? "the partner's own terms" : "the program's terms"
  const rate = String(commission.type ?? '').includes('percent') ? `${commission.rate}%` : `${commission.rate} per sale`
  parts.push(
    commission.amount_cents === null || commission.amount_cents === undefined
      ? `No commission: ${commission.why ?? 'none due'}.`
      : `Commission: ${rate} (${commission.type}, ${terms}), because it is the ${commission.why}.`,
  )
  if (record.source === 'coupon') parts.push(`Attributed by the coupon code ${record.coupon_code}.`)
  if (record.source === 'manual') parts.push('Partner named by you when the sale was recorded by hand.')
  return parts.join(' ')
}

/** The date filter of the sales and commissions pages (and `extra` fields), with the matching CSV download. */
function filterBar(base: string, what: 'sales' | 'commissions', query: Query, extra: Safe = html``): Safe {
  const kept = new URLSearchParams(
    Object.entries({ from: query.from ?? '', to: query.to ?? '', status: query.status ?? '' }).filter(([, v]) => v !== ''),
  )
  return html`<form class="row filters" method="get" action="${base}/${what}">
<label>From <input type="date" name="from" value="${query.from ?? ''}"></label><label>To <input type="date" name="to" value="${query.to ?? ''}"></label>${extra}
<button class="quiet">Filter</button>${kept.size ? html` <a href="${base}/${what}">Clear</a>` : ''}
<a class="button quiet" href="${base}/${what}.csv${kept.size ? `?${kept.toString()}` : ''}" download>Download CSV</a></form>`
}

const older = (path: string, next: string | null, query: Query) => {
  if (!next) return ''
  const params = new URLSearchParams(Object.entries(query).filter(([k, v]) => k !== 'cursor' && v) as [string, string][])
  params.set('cursor', next)
  return html`<p><a href="${path}?${params.toString()}" rel="next">Older</a></p>`
}

/** GET /dashboard/programs/:id/sales: the filter, the sales with "why this partner" in words, and the manual sale and refund forms. */
export function salesPage(
  program: Program,
  page: Paged<SaleRow>,
  data: { query: Query; csrf: string; error?: string; partners: { id: number; name: string | null }[] },
): Safe {
  const base = `/dashboard/programs/${program.id}`
  const { query, csrf } = data
  return html`${programHeader(program, '/sales')}<section class="panel">${filterBar(base, 'sales', query)}${
    page.rows.length === 0
      ? html`<p class="muted">${query.from || query.to ? 'No sale in these dates.' : 'No sale yet.'}</p>`
      : html`<table><thead><tr>
<th>Sale</th><th class="n">Amount</th><th>Status</th><th>Partner</th><th class="hide-narrow">Customer</th><th>Why this partner</th></tr></thead><tbody>
${page.rows.map(
  (
    s,
  ) => html`<tr data-sale="${s.id}"><td>#${s.id} <code>${s.transactionId}</code><div class="muted">${when(s.occurredAt)}${s.testMode ? ' · test' : ''}</div></td>
<td class="n">${money(s.amountCents, s.currency)}</td><td>${s.status}</td><td>${s.partnerName ?? (s.partnerId ? `#${s.partnerId}` : html`<span class="muted">none</span>`)}</td>
<td class="hide-narrow">${s.customerKey ?? ''}</td><td class="why">${attributionInWords(s.attribution ? JSON.parse(s.attribution) : null)}</td></tr>`,
)}
</tbody></table>`
  }${older(`${base}/sales`, page.next, query)}</section>
<div class="columns"><section class="panel" id="manual-sale"><h2>Record a sale by hand</h2>
<p class="muted">For a payment your server or Stripe did not report. It is judged exactly as <code>POST /api/v1/track/sale</code> judges it.</p>
<form class="stack" method="post" action="${base}/sales">${csrfField(csrf)}
<label>Customer key (your id for the customer) <input name="customer_key" maxlength="255" required></label>
<div class="row"><label>Amount <input name="amount" inputmode="decimal" placeholder="49.00" required></label>
<label>Currency <select name="currency">${program.currencies.map((c) => html`<option>${c}</option>`)}</select></label></div>
<label>Transaction id (optional: your invoice or payment id) <input name="transaction_id" maxlength="255"></label>
<label>Partner (optional) <select name="partner_id"><option value="">whoever the customer came through</option>${data.partners.map(
    (p) => html`<option value="${p.id}">${p.name ?? `Partner #${p.id}`}</option>`,
  )}</select>
<span class="muted">Credits the partner when the customer has none yet; a customer who came through a link keeps that partner.</span></label>
<div><button>Record sale</button></div></form></section>
<section class="panel" id="manual-refund"><h2>Refund a sale</h2><p class="muted">Its commission is reversed by a negative ledger entry.</p>
<form class="stack" method="post" action="${base}/refunds" data-confirm="Refund this sale? Its commission is reversed.">${csrfField(csrf)}
<label>Transaction id <input name="transaction_id" maxlength="255" required></label>
<label>Kind <select name="reason"><option value="refund">refund</option><option value="chargeback">chargeback</option></select></label>
<label>Note (optional) <input name="refund_reason" maxlength="1000"></label>
<div><button class="danger">Refund</button></div></form></section></div>`
}

const STATUSES = ['pending', 'due', 'in_payout', 'paid', 'reversed', 'held']

/** GET /dashboard/programs/:id/commissions: the ledger with each entry's status, filtered by dates and status. */
export function commissionsPage(
  program: Program,
  page: Paged<LedgerRow>,
  data: { query: Query; statusOf: (row: LedgerRow) => string },
): Safe {
  const base = `/dashboard/programs/${program.id}`
  const { query, statusOf } = data
  const status = html`<label>Status <select name="status"><option value="">every status</option>${STATUSES.map((s) => html`<option${query.status === s ? html` selected` : ''}>${s}</option>`)}</select></label>`
  return html`${programHeader(program, '/commissions')}<section class="panel">${filterBar(base, 'commissions', query, status)}${
    page.rows.length === 0
      ? html`<p class="muted">${query.from || query.to || query.status ? 'No commission matches.' : 'No commission yet.'}</p>`
      : html`<table><thead><tr>
<th>Entry</th><th>Kind</th><th class="n">Amount</th><th>Partner</th><th class="hide-narrow">Sale</th><th>Status</th><th class="hide-narrow">Booked</th></tr></thead><tbody>
${page.rows.map(
  (
    c,
  ) => html`<tr data-commission="${c.id}"><td>#${c.id}${c.testMode ? html` <span class="muted">test</span>` : ''}</td><td>${c.kind}</td><td class="n">${money(c.amountCents, c.currency)}</td>
<td class="wrap">${c.partnerName ?? `#${c.partnerId}`}</td><td class="hide-narrow">${c.transactionId === null ? html`<span class="muted">bonus${c.description ? html`: ${c.description}` : ''}</span>` : html`<code>${c.transactionId}</code>`}</td><td>${statusOf(c)}${c.flags.length ? html` <span class="muted" title="fraud signals">⚑ ${c.flags.map((flag) => flag.replace('_', ' ')).join(', ')}</span>` : ''}</td><td class="hide-narrow">${when(c.createdAt)}</td></tr>`,
)}
</tbody></table>`
  }${older(`${base}/commissions`, page.next, query)}</section>`
}
