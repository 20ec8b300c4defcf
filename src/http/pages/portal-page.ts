import { PAYOUT_METHODS, PAYOUT_METHOD_LABELS } from '../../domain/payout-method.ts'
import type { LinkRow, Paged, PartnerLedgerRow, PartnerRow } from '../../db/dashboard-store.ts'
import type { Funnel, Money } from '../../db/figure-store.ts'
import type { Coupon, PartnerGroup, Program } from '../../db/schema.ts'
import { count, money, when } from './format.ts'
import { html, Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { copyField, referralUrl } from './owner-pages.ts'
import { statusBadge } from './partner-pages.ts'
import { termsList } from './terms.ts'

/**
 * GET /partner: one partner's own links, figures, commissions and payouts. Only rows of this
 * partner are handed in, and none carries a customer field (docs/decisions.md: no customer email).
 */
export function portalPage(
  program: Program,
  partner: PartnerRow,
  data: {
    links: LinkRow[]
    funnel: Funnel
    money: Money[]
    ledger: Paged<PartnerLedgerRow>
    statusOf?: (row: PartnerLedgerRow) => string
    payouts?: Safe
    csrf: string
    notice?: Safe
    /** The payout details form's own answer, shown beside it. */
    payoutNotice?: Safe
    /** Each link's referral URL as a QR code, SVG drawn on the server. */
    qr?: Map<number, string>
    /** The months with a statement (YYYY-MM), this one first. */
    months?: string[]
    /** The partner's coupon codes. */
    coupons?: Coupon[]
    /** The program pays through Stripe (STRIPE_SECRET_KEY): the "Connect with Stripe" button is shown. */
    stripeConnect?: boolean
    /** The partner's group: its terms come after the partner's own, and its discount is what the partner's audience gets. */
    group?: PartnerGroup | null
  },
): Safe {
  const option = (value: string, label: string) =>
    html`<option value="${value}"${value === (partner.payoutMethod ?? '') ? html` selected` : ''}>${label}</option>`
  const card = (n: number, label: string) => html`<div class="card"><b>${count(n)}</b><span>${label}</span></div>`
  return html`<h1>${partner.name ?? `Partner ${partner.id}`} <span class="muted">· ${program.name}</span> ${statusBadge(partner.status)}</h1>${data.notice ?? ''}
${partner.status === 'active' ? '' : html`<p class="note">${partner.status === 'pending' ? `Your application to ${program.name} is waiting for approval.` : partner.status === 'suspended' ? `${program.name} has suspended your partnership: your links do not count clicks.` : `${program.name} did not accept your application.`}</p>`}
<section class="panel"><h2>Your links</h2>${
    data.links.length === 0
      ? html`<p class="muted">No link yet: ask ${program.name} for one.</p>`
      : data.links.map(
          (
            l,
          ) => html`<div class="link" data-link="${l.shortLink}">${copyField(`link-${l.id}`, referralUrl(program, l))}${l.active ? '' : html`<p class="bad">Turned off: clicks on it are not counted.</p>`}
${
  data.qr?.has(l.id)
    ? html`<details><summary>QR code</summary><div class="qr">${new Safe(data.qr.get(l.id)!)}</div><p class="muted">For print and slides: it opens ${referralUrl(program, l)}</p>
<p><a class="button quiet" download="qr-${l.shortLink}.svg" href="data:image/svg+xml;base64,${btoa(data.qr.get(l.id)!)}">Download the QR code (SVG)</a></p></details>`
    : ''
}</div>`,
        )
  }${
    data.coupons?.length
      ? html`<h3>Your coupon codes</h3><p>${data.coupons.map((c, i) => html`${i > 0 ? ', ' : ''}<code data-coupon>${c.code}</code>`)}</p>
<p class="muted">Where your audience cannot click (a podcast, a video), give them a code to enter at checkout: a new customer's purchase with it is credited to you.</p>`
      : ''
  }</section>
<div class="cards" data-funnel>${card(data.funnel.clicks, data.funnel.clicks === 1 ? 'click' : 'clicks')}${card(data.funnel.leads, data.funnel.leads === 1 ? 'lead' : 'leads')}${card(data.funnel.sales, data.funnel.sales === 1 ? 'sale' : 'sales')}</div>
<section class="panel"><h2>Earnings</h2>${
    data.money.length === 0
      ? html`<p class="muted">No commission yet.</p>`
      : html`<table><thead><tr><th>Currency</th><th class="n">Sales</th><th class="n">Commissions (after refunds)</th></tr></thead><tbody>
${data.money.map((m) => html`<tr><td>${m.currency}</td><td class="n">${money(m.revenueCents - m.refundedCents, m.currency)}</td><td class="n">${money(m.commissionCents, m.currency)}</td></tr>`)}</tbody></table>`
  }</section>
<section class="panel"><h2>Commissions</h2>${
    data.ledger.rows.length === 0
      ? html`<p class="muted">None yet.</p>`
      : html`<table><thead><tr><th>Booked</th><th class="n">Sale</th><th class="n">Commission</th><th>Status</th></tr></thead><tbody>
${data.ledger.rows.map(
  (
    c,
  ) => html`<tr data-commission="${c.id}"><td>${when(c.createdAt)}</td><td class="n">${c.saleCents === null ? html`<span class="muted">bonus${c.description ? html`: ${c.description}` : ''}</span>` : money(c.saleCents, c.currency)}</td><td class="n">${money(c.amountCents, c.currency)}</td>
<td>${data.statusOf ? data.statusOf(c) : c.kind === 'reversal' ? 'reversed' : 'booked'}</td></tr>`,
)}</tbody></table>${
          data.statusOf && data.ledger.rows.some((c) => data.statusOf!(c) === 'held')
            ? html`<p class="muted" id="held-note"><b>Held</b>: an automatic check flagged the sale (for example a purchase from your own address or network). ${program.name} reviews it: approved, it is paid as usual; rejected, it is reversed. Nothing is needed from you.</p>`
            : ''
        }`
  }
${data.ledger.next ? html`<p><a href="/partner?cursor=${data.ledger.next}" rel="next">Older</a></p>` : ''}</section>
${data.payouts ?? ''}
${data.months?.length ? statementsPanel(program, data.months) : ''}
${data.group?.discountDescription ? audiencePanel(program, data.group) : ''}
<section class="panel"><h2>Terms of ${program.name}</h2>${termsList(program, partner, data.group)}</section>
<section class="panel" id="payout-details"><h2>Payout details</h2>${data.payoutNotice ?? ''}
<p class="muted">How ${program.name} pays you. Only the program's owner sees them.</p>
<form class="stack" method="post" action="/partner/payout-details">${csrfField(data.csrf)}
<label>Method <select name="payout_method">${option('', 'choose one')}${PAYOUT_METHODS.map((m) => option(m, PAYOUT_METHOD_LABELS[m]))}</select></label>
<label>Details <textarea name="payout_details" maxlength="1000" placeholder="PayPal or Wise: your email there. Stripe: your account id (acct_…), or Connect with Stripe below. Bank: account holder, IBAN or account number, and any notes.">${partner.payoutDetails ?? ''}</textarea></label>
<div><button>Save payout details</button></div></form>${
    data.stripeConnect
      ? html`<form class="row" method="post" action="/partner/stripe/connect">${csrfField(data.csrf)}<button class="quiet">Connect with Stripe</button><span class="muted">${partner.payoutMethod === 'stripe' ? 'Your Stripe account is connected; press to go on with its setup.' : 'Stripe sets up an account for you, then sends you back here.'}</span></form>`
      : ''
  }</section>`
}

/** What the partner's audience gets (docs/decisions.md, Groups: two-sided): the group's discount, applied at checkout. */
function audiencePanel(program: Program, group: PartnerGroup): Safe {
  return html`<section class="panel" id="audience"><h2>What your audience gets</h2>
<p><b>${group.discountDescription}</b></p>
<p class="muted">Visitors who come through your links get it at ${program.name}'s checkout, without a code to type: say so when you share your link.</p></section>`
}

/** Links to the partner's signed statements (docs/ledger.md): what they keep to check their credits later. */
function statementsPanel(program: Program, months: string[]): Safe {
  const [current, ...past] = months
  return html`<section class="panel" id="statements"><h2>Statements</h2>
<p class="muted">Each statement lists every commission, reversal and payout of yours with a fingerprint, signed by the server of ${program.name}. Save them: the <a href="/verify">verify page</a> (which you can save too, and use offline) or <code>svc verify this-month.json --previous last-month.json</code> proves no entry was changed or removed since.</p>
<ul><li><a href="/partner/statements/${current!}.json">${current!} (so far)</a></li>${past.map((m) => html`<li><a href="/partner/statements/${m}.json">${m}</a></li>`)}</ul></section>`
}
