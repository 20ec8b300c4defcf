import { referralUrlOf, siteUrlOf } from '../../domain/site.ts'
import type { EventRow, LinkRow, Paged, PartnerRow } from '../../db/dashboard-store.ts'
import type { DayPoint, Funnel, Money } from '../../db/figure-store.ts'
import type { Program } from '../../db/schema.ts'
import { barChart } from './chart.ts'
import { count, dayLabel, majorUnits, money, when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { programFields } from './program-form.ts'

/** Fixed texts of the `?done=` and `?error=` notices after a form (never echoed from the query). */
export const notices: Record<string, string> = {
  partner_created: 'Partner created. Now give them a link below.',
  // The Groups page and the bonus form (group-routes.ts).
  group_created: 'Group created.',
  group_saved: 'Group saved: sales from now on are paid by its new terms.',
  group_deleted: 'Group deleted.',
  group_has_partners: 'Not deleted: the group has partners. Move them to another group first.',
  group_missing: 'No such group in this program.',
  group_name: 'Not saved: a group needs a name of at most 200 characters.',
  group_terms: 'Not saved: choose a commission type from the list.',
  group_rate: 'Not saved: the commission rate must be a positive number, at most 100 for the percent types.',
  group_months: 'Not saved: recurring months is a whole number from 1 to 1200, or empty.',
  group_holding: 'Not saved: the holding period is a whole number of days from 0 to 365, or empty.',
  group_discount:
    "Not saved: a discount needs the processor's coupon id (at most 255 characters) and what it gives in words (at most 300).",
  group_signup: 'Not saved: choose who may join from the list.',
  bonus_booked: 'Bonus booked: it is paid with the commissions once the holding period has passed.',
  bonus_amount: 'Not booked: the amount is a positive number with at most as many decimals as the currency has.',
  bonus_currency: 'Not booked: choose one of the currencies of the program.',
  bonus_description: 'Not booked: say why, in at most 500 characters.',
  partner_and_link_created: 'Partner and link created: they share the link below.',
  link_created: 'Link created.',
  link_on: 'Link turned on: clicks count again.',
  link_off: 'Link turned off: its clicks now answer 410 link_disabled.',
  partner_signed_out: 'The partner is signed out of every browser; their unused portal links no longer work.',
  settings_saved: 'Settings saved.',
  origins_saved: 'Allowed origins saved.',
  stripe_saved: 'Stripe webhook signing secret saved.',
  rotation_marked: 'The API key is marked for rotation.',
  track_key_deleted: 'Track key deleted: it answers 401 from now on.',
  track_key_missing: 'No such track key in this program.',
  track_key_name: 'Not made: a key name is at most 100 characters, on one line.',
  short_link_taken: 'That short link is already taken (short links are unique across the server).',
  short_link_invalid: 'A short link is 1 to 100 letters, digits, - or _.',
  no_partner: 'Choose a partner of this program.',
  partner_invalid: 'A partner needs a name of at most 200 characters and, if given, a valid email.',
  settings_name: 'Not saved: the name must be 1 to 200 characters.',
  settings_domain: "Not saved: the domain must be a host name such as shop.example, or the site's URL such as http://localhost:3901.",
  settings_commission_type: 'Not saved: choose a commission type from the list.',
  settings_commission_rate: 'Not saved: the commission rate must be a positive number, at most 100 for the percent types.',
  settings_attribution_window_days: 'Not saved: the attribution window is a whole number of days from 1 to 3650.',
  settings_holding_period_days: 'Not saved: the holding period is a whole number of days from 0 to 365.',
  settings_minimum_payout: 'Not saved: the minimum payout is a number of 0 or more.',
  settings_currencies: 'Not saved: currencies are 1 to 50 ISO 4217 codes such as USD, GBP or JPY.',
  settings_minimum_payouts: 'Not saved: minimum payouts per currency are a code and a number of 0 or more, such as JPY 5000.',
  processor_invalid: 'Not saved: a signing secret is 1 to 200 characters without spaces.',
  processor_saved: 'Signing secret saved.',
  settings_recurring_months: 'Not saved: recurring months is a whole number from 1 to 1200, or empty for no limit.',
  settings_lead_auth: 'Not saved: choose how leads are authenticated from the list.',
  settings_partner_signup: 'Not saved: choose who may join from the list.',
  payouts_run: 'Payout run done: {count} created, one per partner and currency.',
  payouts_none: 'Nothing is due: no payout was created.',
  payout_paid: 'Payout marked paid.',
  payout_canceled: 'Payout canceled: its commissions are due again.',
  payout_conflict: 'A paid payout cannot be canceled, a canceled or failed one paid, and one being sent neither.',
  payouts_sent: 'Sending {count} with the provider: each turns paid or failed on this page as it answers.',
  payouts_send_none: 'Nothing to send: no pending payout of a partner paid that way, in a currency it pays.',
  payouts_rail_off: 'That provider is not configured on this server (docs/payouts.md).',
  payout_missing: 'No such payout in this program.',
  until_invalid: 'Give a date such as 2026-06-30.',
  origins_invalid: 'Not saved: each line must be an origin such as https://shop.example.',
  stripe_invalid: 'Not saved: the signing secret starts with whsec_.',
  rotation_invalid: 'Give the date when the key stops working.',
  rotation_no_key: 'The program has no active API key.',
  link_missing: 'No such link in this program.',
  partner_saved: 'Partner saved.',
  partner_name_invalid: 'Not saved: a name is at most 200 characters.',
  partner_email_invalid: 'Not saved: the email is not an email address.',
  partner_terms_invalid: 'Not saved: choose a commission type from the list.',
  partner_rate_invalid: 'Not saved: the commission rate must be a positive number, at most 100 for the percent types.',
  partner_group_invalid: 'Not saved: that group is not one of this program.',
  partner_months_invalid: 'Not saved: recurring months is a whole number from 1 to 1200, or empty.',
  partner_payout_invalid:
    'Not saved: PayPal and Wise take an email, Stripe an account id (acct_…), bank transfer any text (at most 1000 characters).',
  partner_approved: 'Partner approved: their links count clicks now.',
  partner_rejected: 'Application rejected.',
  partner_suspended: 'Partner suspended: their links no longer count clicks and they are signed out.',
  partner_unsuspended: 'Partner active again.',
  status_conflict: 'That does not apply to the partner as they are now: reload the page.',
  partner_has_sales: 'This partner has sales and cannot be deleted: suspend them instead.',
  partner_deleted: 'Partner deleted.',
  coupon_created: 'Coupon added: sales naming it are credited to this partner when the customer has no partner yet.',
  coupon_deleted: 'Coupon deleted.',
  coupon_code_invalid: 'A coupon code is 1 to 64 letters, digits, - or _.',
  coupon_promotion_invalid: 'A Stripe promotion code is its id, promo_ followed by letters and digits.',
  coupon_taken: 'This program has that coupon code already (codes are compared without case).',
  payout_details_saved: 'Payout details saved.',
  payout_details_stripe: 'Your Stripe account is connected: you are paid through Stripe from now on.',
  payout_details_stripe_unfinished:
    'Stripe has not finished setting up your account yet: press "Connect with Stripe" again to go on where you stopped.',
  payout_details_stripe_failed: 'Stripe could not be reached or did not know that account: nothing was changed. Try again in a moment.',
  payout_details_stripe_off: 'This program does not pay through Stripe.',
  payout_details_stripe_limit: 'Stripe accounts were made for you several times today: try again tomorrow, or choose another method.',
  payout_details_invalid:
    'Not saved: choose a method and write its details: your PayPal or Wise email, or your bank details (at most 1000 characters).',
  webhook_url: 'Not added: the URL must be an http(s) URL.',
  webhook_private:
    'Not added: the URL points at a loopback, private, link-local or unique-local address. To send webhooks to this machine while testing, start svc with WEBHOOKS_ALLOW_PRIVATE=true.',
  webhook_test_ok: 'Test event delivered.',
  webhook_test_failed: 'The test event was not delivered: see its last answer below; it is retried.',
  webhook_retried: 'Every undelivered delivery of the endpoint is being attempted now.',
  webhook_on: 'Endpoint on: it gets events again.',
  webhook_off: 'Endpoint off: it gets no events until turned on.',
  webhook_deleted: 'Endpoint deleted.',
  dates_invalid: 'Give dates such as 2026-06-30 (and a status from the list).',
  sale_recorded: 'Sale recorded, with its commission.',
  sale_unattributed: 'Sale recorded without commission: the customer has no partner.',
  sale_commission_failed: 'Sale recorded, but its commission could not be written: see the server log.',
  sale_duplicate: 'Not recorded: a sale with that transaction id exists already.',
  sale_too_large: "Not recorded: the partner's unpaid commissions would pass the largest amount svc keeps exactly.",
  sale_rejected: 'Not recorded: no customer of this program has that key, or its first click is older than the attribution window.',
  sale_invalid: 'Give a customer key, an amount such as 49.00 (whole numbers for VND) and a currency.',
  sale_partner: 'Not recorded: choose an active partner of this program, or none.',
  refund_done: 'Sale refunded: its commission is reversed.',
  refund_again: 'That sale was refunded already: nothing changed.',
  refund_missing: 'No sale of this program has that transaction id.',
  review_approved: 'Commission approved: it is paid like any other once its holding period has passed.',
  review_rejected: 'Commission rejected: a reversal entry cancels it, and it is never paid.',
  review_conflict: 'That commission is not held any more (reviewed already, or its sale was refunded).',
  review_reason_invalid: 'Not rejected: a reason is at most 500 characters.',
  settings_fraud_review: 'Not saved: choose what flagged commissions do from the list.',
}

/** The notice of a `?done=` or `?error=` code after a form: a fixed text, never the query echoed. */
export function notice(query: Record<string, string | undefined>): Safe {
  // {count} is the one value a notice carries, and only as digits.
  const count = /^\d{1,6}$/.test(query.count ?? '') ? Number(query.count) : null
  const done =
    query.done && notices[query.done]?.replace('{count}', count === null ? 'payouts' : `${count} payout${count === 1 ? '' : 's'}`)
  const error = query.error && notices[query.error]
  return html`${done ? html`<p class="note" role="status">${done}</p>` : ''}${error ? html`<p class="error" role="alert">${error}</p>` : ''}`
}

const tabs = [
  ['', 'Overview'],
  ['/partners', 'Partners'],
  ['/groups', 'Groups'],
  ['/sales', 'Sales'],
  ['/commissions', 'Commissions'],
  ['/review', 'Review'],
  ['/payouts', 'Payouts'],
  ['/webhooks', 'Webhooks'],
  ['/events', 'Payment events'],
  ['/activity', 'Activity'],
  ['/settings', 'Settings'],
] as const

/** A tab's label with the count of what waits there, when something does. */
const counted = (label: string, n: number, name: string) =>
  n > 0 ? html`${label} <span class="count" data-${name}="${n}" title="${n} waiting">${n}</span>` : label

/**
 * The program's title and its tabs; Applications shows when partners may apply or some wait, with
 * their count; Review shows how many commissions are held for it.
 */
export function programHeader(program: Program & { pendingApplications?: number; heldCommissions?: number }, current: string): Safe {
  const base = `/dashboard/programs/${program.id}`
  const pending = program.pendingApplications ?? 0
  const shown = pending > 0 || program.partnerSignup === 'approval'
  const withCounts = tabs.map(([path, label]): readonly [string, string | Safe] =>
    path === '/review' ? [path, counted(label, program.heldCommissions ?? 0, 'held')] : [path, label],
  )
  const all: readonly (readonly [string, string | Safe])[] = shown
    ? [...withCounts.slice(0, 2), ['/applications', counted('Applications', pending, 'pending')], ...withCounts.slice(2)]
    : withCounts
  return html`<p class="muted"><a href="/dashboard">All programs</a> <a href="/dashboard/team">Team</a></p><h1>${program.name} <span class="muted">#${program.id} · ${siteUrlOf(program)}</span></h1>
<nav class="tabs">${all.map(([path, label]) => html`<a href="${base}${path}"${path === current ? html` aria-current="page"` : ''}>${label}</a>`)}</nav>`
}

/** The four funnel figures as cards (clicks with the unique ones, leads, customers, sales). */
export function funnelCards(f: Funnel): Safe {
  const card = (n: number, label: string, more: Safe | '' = '') =>
    html`<div class="card"><b>${count(n)}</b><span>${label}</span>${more}</div>`
  const unique = html`<small class="muted" data-unique-clicks="${f.uniqueClicks}" title="one per visitor IP, link and hour">${count(f.uniqueClicks)} unique</small>`
  return html`<div class="cards" data-funnel>${card(f.clicks, 'clicks', unique)}${card(f.leads, 'leads')}${card(f.customers, 'customers')}${card(f.sales, 'sales')}</div>`
}

/**
 * Sales before and after refunds, and commissions, one row per currency (docs/decisions.md, The
 * first hour: every figure says what it counts). With `held` (per currency), commissions held for
 * review are shown apart and left out of the commissions column.
 */
export function moneyTable(rows: Money[], held: Map<string, number> = new Map()): Safe {
  if (rows.length === 0) return html`<p class="muted">No sale yet.</p>`
  const anyHeld = [...held.values()].some((c) => c > 0)
  const columns = rows.map((m) => {
    const heldCents = held.get(m.currency) ?? 0
    return {
      currency: m.currency,
      cells: [
        ['Sales', money(m.revenueCents, m.currency)],
        ['Refunded', money(m.refundedCents, m.currency)],
        ['Net sales', money(m.revenueCents - m.refundedCents, m.currency)],
        [anyHeld ? 'Commissions (not held)' : 'Commissions', money(m.commissionCents - heldCents, m.currency)],
        ...(anyHeld ? [['Held for review', money(heldCents, m.currency)]] : []),
      ],
    }
  })
  // A table on wide screens; on a phone each currency is a short list, so that no column scrolls out of view.
  return html`<table class="money hide-narrow"><thead><tr><th>Currency</th>${columns[0]!.cells.map(([label]) => html`<th class="n">${label}</th>`)}</tr></thead><tbody>
${columns.map((c) => html`<tr data-currency="${c.currency}"><td>${c.currency}</td>${c.cells.map(([, value]) => html`<td class="n">${value}</td>`)}</tr>`)}
</tbody></table>${columns.map(
    (c) =>
      html`<dl class="money-list show-narrow"><dt>${c.currency}</dt>${c.cells.map(([label, value]) => html`<div><dd class="muted">${label}</dd><dd class="n">${value}</dd></div>`)}</dl>`,
  )}<p class="muted">Sales count every sale as recorded; refunded sales are in Refunded too, and Net sales is what stays. Commissions are after refunds' reversals.</p>`
}

/** GET /dashboard: every program of the account with its funnel, and the New program form. */
/** The Team page's link: the guard leaves it out for anyone but the owner. */
const teamLink = html`<p class="muted"><a href="/dashboard/team">Team: invite an admin or a viewer</a></p>`

export function programsPage(
  list: { program: Program; funnel: Funnel; money: Money[] }[],
  csrf: string,
  problem: { field: string; message: string } | null,
): Safe {
  const form = html`<section class="panel" id="new-program"><h2>New program</h2>
${problem?.message ? html`<p class="error" role="alert" data-field="${problem.field}">${problem.message}</p>` : ''}
<form class="stack" method="post" action="/dashboard/programs">${csrfField(csrf)}${programFields({})}
<div><button>Create program</button></div></form></section>`
  if (list.length === 0) {
    return html`<h1>Your programs</h1>${teamLink}<p class="note">No program yet: create your first one below. You get its API key and the tracker snippet right after.</p>${form}`
  }
  return html`<h1>Your programs</h1>${teamLink}${list.map(
    ({
      program,
      funnel,
      money: m,
    }) => html`<section class="panel"><h2><a href="/dashboard/programs/${program.id}">${program.name}</a> <span class="muted">#${program.id} · ${siteUrlOf(program)}</span></h2>
${funnelCards(funnel)}<h3>Revenue and commissions</h3>${moneyTable(m)}</section>`,
  )}${form}`
}

/** Each readiness check's title in words; its id is shown beside it as a detail. */
const checkTitles: Record<string, string> = {
  api_key: 'API key',
  browser_origins: 'Browser origins',
  active_link: 'An active partner link',
  first_click: 'First click',
  client_addresses: "Visitors' addresses",
  first_lead: 'First signup (lead)',
  first_sale: 'First sale',
  live_data: 'Live data',
}

const checkHelp: Record<string, (p: Program) => Safe> = {
  api_key: (p) => html`Regenerate the key in <a href="/dashboard/programs/${p.id}/settings">Settings</a> and deploy the new one.`,
  active_link: (p) => html`Create a partner and a link on <a href="/dashboard/programs/${p.id}/partners">Partners</a>.`,
  first_click: (p) =>
    html`Install the tracker (<a href="/dashboard/programs/${p.id}/settings#tracker">snippet in Settings</a>) and open your site with <code>?aff=</code> and a short link.`,
  first_lead: () => html`Call <code>POST /api/v1/track/lead</code> from your server at signup, with the click id and your customer key.`,
  first_sale: (p) =>
    html`Call <code>POST /api/v1/track/sale</code>, or add the Stripe webhook shown in <a href="/dashboard/programs/${p.id}/settings#stripe">Settings</a>.`,
  live_data: () => html`Send a real (not test-mode) click, lead or sale.`,
  browser_origins: (p) => html`Add your site's origins in <a href="/dashboard/programs/${p.id}/settings#origins">Settings</a>.`,
}

/** GET /dashboard/programs/:id: funnel, money, the per-day charts and the readiness checklist. */
export function overviewPage(
  program: Program,
  data: {
    funnel: Funnel
    test: Funnel
    money: Money[]
    /** Commissions held for review, per currency. */
    held: Map<string, number>
    days: DayPoint[]
    span: number
    checks: { id: string; ok: boolean; message: string }[]
    /** The charts per partner group (group-pages.ts groupCharts), when the program has groups. */
    groupCharts?: Safe
  },
): Safe {
  const { days, span } = data
  const labels = days.map((d) => dayLabel(d.day))
  const currencies = [...new Set(days.flatMap((d) => Object.keys(d.revenue)))].sort()
  const ready = data.checks.every((c) => c.ok)
  const base = `/dashboard/programs/${program.id}`
  return html`${programHeader(program, '')}
<h2>Funnel <span class="muted">(live)</span></h2>${funnelCards(data.funnel)}
${data.test.clicks + data.test.leads + data.test.sales > 0 ? html`<p class="muted">Test mode, not counted above: ${count(data.test.clicks)} clicks, ${count(data.test.leads)} leads, ${count(data.test.sales)} sales.</p>` : ''}
<h2>Sales and commissions</h2><div class="panel">${moneyTable(data.money, data.held)}</div>
<h2>Per day, last ${span} days <span class="muted">(<a href="${base}?days=${span === 30 ? 90 : 30}">show ${span === 30 ? 90 : 30} days</a>)</span></h2>
<div class="charts">${barChart(
    'Clicks',
    days.map((d) => d.clicks),
    labels,
    { format: count, inner: { label: 'unique', values: days.map((d) => d.uniqueClicks) } },
  )}${barChart(
    'Leads',
    days.map((d) => d.leads),
    labels,
    { format: count },
  )}${barChart(
    'Sales',
    days.map((d) => d.sales),
    labels,
    { format: count },
  )}${
    currencies.length === 0
      ? barChart(
          'Revenue',
          days.map(() => 0),
          labels,
        )
      : currencies.map((c) =>
          barChart(
            `Revenue ${c}`,
            days.map((d) => d.revenue[c] ?? 0),
            labels,
            { format: (n) => money(n, c), axis: (n) => majorUnits(n, c) },
          ),
        )
  }</div>
${data.groupCharts ?? ''}
<h2>Readiness ${ready ? html`<span class="ok">· ready</span>` : html`<span class="bad">· not ready yet</span>`}</h2>
<div class="panel"><ul class="checks">${data.checks.map(
    (
      c,
    ) => html`<li data-check="${c.id}">${c.ok && c.message.startsWith('Warning') ? html`<span class="check-warn">⚠</span>` : html`<span class="${c.ok ? 'ok' : 'bad'}">${c.ok ? '✓' : '✗'}</span>`} <b>${checkTitles[c.id] ?? c.id}</b><br>${c.message}
${c.ok ? '' : html`<br><span class="muted">What to do:</span> ${checkHelp[c.id]?.(program) ?? ''}`}</li>`,
  )}</ul></div>`
}

/** The referral URL of a link: the program's site with `aff` (docs/decisions.md, Operator API). */
export const referralUrl = (program: Program, link: LinkRow) => referralUrlOf(program, link.shortLink)

/** A read-only field with a Copy button (the button needs the script; the field can be selected without it). */
export function copyField(id: string, value: string, label = 'Referral URL'): Safe {
  return html`<div class="row"><input class="url" id="${id}" value="${value}" readonly aria-label="${label}"><button type="button" class="quiet" data-copy="${id}">Copy</button></div>`
}

/** A partner's commission in one currency by payout status (docs/decisions.md, Payouts). */
export interface CommissionStatusTotals {
  currency: string
  pendingCents: number
  dueCents: number
  inPayoutCents: number
  paidCents: number
  /** Held for review (fraud signals): in no payout run until approved. */
  heldCents: number
}

/** The page that shows a new portal sign-in link once. */
export function portalLinkPage(program: Program, partner: PartnerRow, link: { url: string; expires_at: string }): Safe {
  return html`${programHeader(program, '/partners')}<section class="panel"><h2>Portal sign-in link for ${partner.name ?? `Partner ${partner.id}`}</h2>
<p>Send this link to the partner. It signs them in to their portal once, until ${link.expires_at}.</p>${copyField('portal-link', link.url, 'Portal sign-in link')}
<p><a href="/dashboard/programs/${program.id}/partners">Back to partners</a></p></section>`
}

const more = (path: string, next: string | null) => (next ? html`<p><a href="${path}?cursor=${next}" rel="next">Older</a></p>` : '')

/** GET /dashboard/programs/:id/events: received processor events (Stripe, Paddle, Lemon Squeezy, Polar) with their outcomes. */
export function eventsPage(program: Program, page: Paged<EventRow>): Safe {
  const path = `/dashboard/programs/${program.id}/events`
  return html`${programHeader(program, '/events')}<section class="panel">${
    page.rows.length === 0
      ? html`<p class="muted">No payment event received yet (Stripe, Paddle, Lemon Squeezy or Polar). The webhook URLs are in <a href="/dashboard/programs/${program.id}/settings#stripe">Settings</a>.</p>`
      : // Stacked under 700 px: an event id is long, and its column left the outcome a few letters wide on a phone.
        html`<table class="stacked"><thead><tr>
<th>Event</th><th>Type</th><th>Outcome</th><th class="hide-narrow">Received</th></tr></thead><tbody>
${page.rows.map(
  (
    e,
  ) => html`<tr data-event="${e.id}"><td data-label="Event"><code>${e.eventId}</code>${e.livemode === 0 ? html` <span class="muted">test</span>` : ''}</td><td data-label="Type">${e.type}</td>
<td data-label="Outcome"><b>${e.outcome}</b>${e.detail ? html`<div class="muted">${e.detail}</div>` : ''}${e.saleId ? html`<div class="muted">sale #${e.saleId}</div>` : ''}</td><td class="hide-narrow">${when(e.createdAt)}</td></tr>`,
)}
</tbody></table>`
  }${more(path, page.next)}</section>`
}
