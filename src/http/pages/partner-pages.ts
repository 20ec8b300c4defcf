import { PAYOUT_METHODS, PAYOUT_METHOD_LABELS } from '../../domain/payout-method.ts'
import { siteUrlOf } from '../../domain/site.ts'
import type { Mail } from '../../outbox/mail.ts'
import type { LinkRow } from '../../db/dashboard-store.ts'
import type { PartnerFigures } from '../../db/figure-store.ts'
import type { Partner, PartnerWithLinks } from '../../db/partner-store.ts'
import { type Coupon, PARTNER_STATUSES, type PartnerGroup, type Program } from '../../db/schema.ts'
import { termsFor } from '../../domain/attribution.ts'
import { COMMISSION_TYPES } from '../../domain/commission.ts'
import { COMMISSION_LABELS } from './program-form.ts'
import { count, money, when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { type CommissionStatusTotals, copyField, programHeader, referralUrl } from './owner-pages.ts'
import { bonusPanel } from './group-pages.ts'
import { termsInWords } from './terms.ts'

type Query = Record<string, string | undefined>

/** The columns the partners table sorts by (?sort=), each with its value of a row. */
const SORTS: Record<string, (row: Row) => number | string> = {
  name: (r) => (r.partner.name ?? '').toLowerCase(),
  status: (r) => r.partner.status,
  clicks: (r) => -r.figures.clicks,
  sales: (r) => -r.figures.sales,
  newest: (r) => -r.partner.id,
}

interface Row {
  partner: PartnerWithLinks
  figures: PartnerFigures
  statuses: CommissionStatusTotals[]
}

/** A partner's status as a badge. */
export const statusBadge = (status: string) => html`<span class="badge status-${status}">${status}</span>`

const nameOf = (p: Pick<Partner, 'id' | 'name'>) => p.name ?? `Partner ${p.id}`

/**
 * A partner's commission: a line per currency, each amount with its status kept in one piece
 * (a narrow line breaks between them, never inside "USD 8.00 held for review").
 */
function commissionCell(row: Row): Safe {
  if (row.statuses.length === 0) return html`<span class="muted">–</span>`
  return html`${row.statuses.map((s) => {
    const parts: [number, string][] = [
      [s.pendingCents, 'pending'],
      [s.dueCents, 'due'],
      ...(s.inPayoutCents ? [[s.inPayoutCents, 'in payout'] as [number, string]] : []),
      [s.paidCents, 'paid'],
      ...(s.heldCents ? [[s.heldCents, 'held for review'] as [number, string]] : []),
    ]
    return html`<span class="status-line" data-status-currency="${s.currency}">${parts.map(
      ([cents, words], i) => html`${i ? ' ' : ''}<span>${money(cents, s.currency)} ${words}${i < parts.length - 1 ? ' ·' : ''}</span>`,
    )}</span>`
  })}`
}

/**
 * GET /dashboard/programs/:id/partners: a search and status filter, the partners as a table
 * sortable by its headers (server-side: it works without script), every link with its referral
 * URL, and the forms that create a partner and a link (the link form chooses `preselect`, the
 * partner just created).
 */
export function partnersPage(
  program: Program,
  data: {
    partners: PartnerWithLinks[]
    links: LinkRow[]
    figures: Map<number, PartnerFigures>
    statuses: Map<number, CommissionStatusTotals[]>
    csrf: string
    query: Query
    preselect: number | null
    groups: PartnerGroup[]
  },
): Safe {
  const base = `/dashboard/programs/${program.id}`
  const { csrf, query } = data
  const zero = { partnerId: 0, clicks: 0, uniqueClicks: 0, leads: 0, customers: 0, sales: 0, money: [] }
  const sort = query.sort && SORTS[query.sort] ? query.sort : 'newest'
  const rows: Row[] = data.partners.map((partner) => ({
    partner,
    figures: data.figures.get(partner.id) ?? { ...zero, partnerId: partner.id },
    statuses: data.statuses.get(partner.id) ?? [],
  }))
  const key = SORTS[sort]!
  rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : b.partner.id - a.partner.id))
  const filters = new URLSearchParams(
    Object.entries({ q: query.q ?? '', status: query.status ?? '', group_id: query.group_id ?? '' }).filter(([, v]) => v !== ''),
  )
  const groupNames = new Map(data.groups.map((g) => [g.id, g.name]))
  const sortLink = (by: string, label: string) =>
    html`<a href="${base}/partners?${new URLSearchParams({ ...Object.fromEntries(filters), sort: by }).toString()}"${sort === by ? html` aria-sort="${by === 'name' || by === 'status' ? 'ascending' : 'descending'}"` : ''}>${label}</a>`
  const names = new Map(data.partners.map((p) => [p.id, nameOf(p)]))
  const filtered = filters.size > 0
  return html`${programHeader(program, '/partners')}
<section class="panel"><div class="row spread"><h2>Partners <span class="muted">(${count(rows.length)}${filtered ? ' matching' : ''})</span></h2>
<a class="button quiet" href="${base}/partners.csv${filtered ? `?${filters.toString()}` : ''}" download>Download CSV</a></div>
<form class="row filters" method="get" action="${base}/partners"><input name="q" value="${query.q ?? ''}" placeholder="Search name or email" maxlength="200" aria-label="Search partners">
<select name="status" aria-label="Status"><option value="">Every status</option>${PARTNER_STATUSES.map((s) => html`<option${query.status === s ? html` selected` : ''}>${s}</option>`)}</select>
${data.groups.length ? html`<select name="group_id" aria-label="Group"><option value="">Every group</option>${data.groups.map((g) => html`<option value="${g.id}"${query.group_id === String(g.id) ? html` selected` : ''}>${g.name}</option>`)}</select>` : ''}
<input type="hidden" name="sort" value="${sort}"><button class="quiet">Filter</button>${filtered ? html` <a href="${base}/partners">Clear</a>` : ''}</form>
${
  rows.length === 0
    ? html`<p class="muted">${filtered ? 'No partner matches.' : 'No partner yet: create one below, or let partners apply on your join page (Settings).'}</p>`
    : // Under 700 px each partner is a card (table.stacked) and the header a bar of the sort links.
      html`<table class="partners stacked"><thead><tr><th>${sortLink('name', 'Partner')}</th><th>${sortLink('status', 'Status')}</th>
<th class="n">${sortLink('clicks', 'Clicks')}</th><th class="n hide-narrow">Leads</th><th class="n">${sortLink('sales', 'Sales')}</th>
<th class="n hide-narrow">Revenue</th><th class="hide-narrow">Commission</th></tr></thead><tbody>
${rows.map(
  (
    r,
  ) => html`<tr data-partner="${r.partner.id}"><td data-label=""><a href="${base}/partners/${r.partner.id}"><b>${nameOf(r.partner)}</b></a>
<div class="muted">#${r.partner.id}${r.partner.email ? html` · ${r.partner.email}` : ''}${r.partner.groupId !== null ? html` · <span class="group" data-group="${r.partner.groupId}">${groupNames.get(r.partner.groupId) ?? ''}</span>` : ''} · ${r.partner.links} link${r.partner.links === 1 ? '' : 's'}<span class="show-narrow"> ${statusBadge(r.partner.status)} · ${count(r.figures.clicks)} click${r.figures.clicks === 1 ? '' : 's'}</span></div></td>
<td class="hide-narrow">${statusBadge(r.partner.status)}</td><td class="n hide-narrow" data-stat="clicks">${count(r.figures.clicks)}</td><td class="n hide-narrow" data-stat="leads">${count(r.figures.leads)}</td>
<td class="n" data-stat="sales" data-label="Sales">${count(r.figures.sales)}</td><td class="n hide-narrow">${r.figures.money.length ? html`${r.figures.money.map((m) => html`<span class="amount">${money(m.revenueCents, m.currency)}</span>`)}` : html`<span class="muted">–</span>`}</td>
<td class="commission" data-label="Commission">${commissionCell(r)}</td></tr>`,
)}</tbody></table>`
}</section>
<section class="panel"><h2>Links</h2>${
    data.links.length === 0
      ? html`<p class="muted">No link yet: create one below. A link is the <code>aff</code> value partners add to any page of ${siteUrlOf(program)}.</p>`
      : linkList(program, data.links, csrf, names)
  }</section>
<div class="columns"><section class="panel"><h2>Create a partner</h2><form class="stack" method="post" action="${base}/partners">${csrfField(csrf)}
<label>Name <input name="name" maxlength="200" required></label><label>Email (optional) <input name="email" type="email" maxlength="254"></label>
<label><span>Their link (optional: the <code>aff</code> value, such as <i>ada</i>)</span> <input name="short_link" pattern="[A-Za-z0-9_\\-]{1,100}" maxlength="100" placeholder="ada"></label>
<div><button>Create partner</button></div></form></section>
<section class="panel" id="create-link"><h2>Create a link</h2>${
    data.partners.length === 0
      ? html`<p class="muted">Create a partner first.</p>`
      : html`<form class="stack" method="post" action="${base}/links">${csrfField(csrf)}
<label>Partner <select name="partner_id" required>${data.partners.map((p) => html`<option value="${p.id}"${p.id === data.preselect ? html` selected` : ''}>${nameOf(p)} (#${p.id})</option>`)}</select></label>
<label><span>Short link (the <code>aff</code> value)</span> <input name="short_link" pattern="[A-Za-z0-9_\\-]{1,100}" maxlength="100" required></label>
<div><button>Create link</button></div></form>`
  }</section></div>`
}

/** Links with their referral URL to copy and the button that turns each on or off. */
function linkList(program: Program, links: LinkRow[], csrf: string, names?: Map<number, string>): Safe {
  const base = `/dashboard/programs/${program.id}`
  return html`${links.map(
    (
      l,
    ) => html`<div class="link" data-link="${l.shortLink}">${names && l.partnerId !== null ? html`<div class="muted">${names.get(l.partnerId) ?? `Partner ${l.partnerId}`}</div>` : ''}${copyField(`link-${l.id}`, referralUrl(program, l))}
<div class="row">${l.active ? html`<span class="ok">on</span>` : html`<span class="bad">off</span>`}<form method="post" action="${base}/links/${l.id}/active">${csrfField(csrf)}<input type="hidden" name="active" value="${l.active ? 'false' : 'true'}"><input type="hidden" name="back" value="${names ? 'list' : String(l.partnerId)}"><button class="quiet">${l.active ? 'Turn off' : 'Turn on'}</button></form></div></div>`,
  )}`
}

/** The actions a partner's status allows, as [action, button label, confirmation or null]. */
function statusActions(status: string): [string, string, string | null][] {
  if (status === 'pending')
    return [
      ['approve', 'Approve', null],
      ['reject', 'Reject', 'Reject this application?'],
    ]
  if (status === 'rejected') return [['approve', 'Approve after all', null]]
  if (status === 'active')
    return [['suspend', 'Suspend', 'Suspend this partner? Their links stop counting clicks and they are signed out.']]
  return [['unsuspend', 'Make active again', null]]
}

/**
 * GET /dashboard/programs/:id/partners/:partner_id: one partner's figures, links, terms and
 * payout details, the edit form, the status actions, the portal link and deletion.
 */
export function partnerPage(
  program: Program,
  data: {
    partner: Partner
    links: LinkRow[]
    coupons: Coupon[]
    groups: PartnerGroup[]
    figures: PartnerFigures | null
    statuses: CommissionStatusTotals[]
    csrf: string
  },
): Safe {
  const { partner: p, csrf } = data
  const base = `/dashboard/programs/${program.id}/partners/${p.id}`
  const f = data.figures
  const group = data.groups.find((g) => g.id === p.groupId) ?? null
  const currentGroup = p.groupId === null ? null : String(p.groupId)
  // What an empty field below means: the group's term where the group has one, else the program's.
  const inherited = termsFor(program, null, group)
  const whose = (key: 'commissionType' | 'commissionRate' | 'recurringMonths') =>
    group && (group[key] ?? null) !== null ? "the group's" : "the program's"
  const option = (value: string, current: string | null, label = value) =>
    html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`
  return html`${programHeader(program, '/partners')}
<p class="muted"><a href="/dashboard/programs/${program.id}/partners">All partners</a></p>
<section class="panel"><div class="row spread"><h2>${nameOf(p)} ${statusBadge(p.status)}</h2>
<div class="row">${statusActions(p.status).map(
    ([action, label, confirm]) =>
      html`<form method="post" action="${base}/status"${confirm ? html` data-confirm="${confirm}"` : ''}>${csrfField(csrf)}<input type="hidden" name="action" value="${action}"><button class="${action === 'approve' || action === 'unsuspend' ? '' : 'quiet'}">${label}</button></form>`,
  )}
<form method="post" action="${base}/portal-link">${csrfField(csrf)}<button class="quiet">Portal link</button></form></div></div>
<p class="muted">#${p.id}${p.email ? html` · ${p.email}` : ''} · since ${when(p.createdAt)}${p.website ? html` · ${p.website}` : ''}</p>
${p.promotion ? html`<p><span class="muted">How they promote:</span> ${p.promotion}</p>` : ''}
<dl class="stats"><div><dt>Clicks</dt><dd>${count(f?.clicks ?? 0)}</dd></div><div><dt>Leads</dt><dd>${count(f?.leads ?? 0)}</dd></div>
<div><dt>Sales</dt><dd>${count(f?.sales ?? 0)}</dd></div></dl>
<p class="commission"><span class="muted">Commission:</span> ${commissionCell({ partner: { ...p, links: 0 }, figures: f ?? { partnerId: p.id, clicks: 0, uniqueClicks: 0, leads: 0, customers: 0, sales: 0, money: [] }, statuses: data.statuses })}</p>
<p><span class="muted">Group:</span> ${group ? html`<a href="/dashboard/programs/${program.id}/groups#group-${group.id}">${group.name}</a>` : 'none'}</p>
<p><span class="muted">Paid by:</span> ${termsInWords(program, p, group)}</p>
${group?.discountDescription ? html`<p><span class="muted">Their audience gets:</span> ${group.discountDescription}</p>` : ''}</section>
<section class="panel"><h2>Links</h2>${data.links.length === 0 ? html`<p class="muted">No link yet.</p>` : linkList(program, data.links, csrf)}
<form class="row" method="post" action="/dashboard/programs/${program.id}/links">${csrfField(csrf)}<input type="hidden" name="partner_id" value="${p.id}">
<label>New short link <input name="short_link" pattern="[A-Za-z0-9_\\-]{1,100}" maxlength="100" required></label><button class="quiet">Create link</button></form></section>
${couponsPanel(program, p, data.coupons, csrf)}
${bonusPanel(program, p.id, csrf)}
<section class="panel"><h2>Edit</h2><form class="stack" method="post" action="${base}">${csrfField(csrf)}
<label>Name <input name="name" value="${p.name ?? ''}" maxlength="200"></label>
<label>Email <input name="email" type="email" value="${p.email ?? ''}" maxlength="254"></label>
<label>Group <select name="group_id">${option('', currentGroup, 'no group')}${data.groups.map((g) => option(String(g.id), currentGroup, g.name))}</select>
<span class="muted">Its terms apply where the partner has none of its own below.</span></label>
<label>Commission type <select name="commission_type">${option('', p.commissionType, `${whose('commissionType')}: ${COMMISSION_LABELS[inherited.commissionType]}`)}${COMMISSION_TYPES.map((t) => option(t, p.commissionType, COMMISSION_LABELS[t]))}</select></label>
<label>Commission rate <input name="commission_rate" value="${p.commissionRate ?? ''}" inputmode="decimal" placeholder="${whose('commissionRate')} (${inherited.commissionRate})"></label>
<label>Recurring months <input name="recurring_months" value="${p.recurringMonths ?? ''}" inputmode="numeric" placeholder="${whose('recurringMonths')} (${inherited.recurringMonths === null ? 'no limit' : inherited.recurringMonths})">
<span class="muted">For the recurring types: months after the customer's first sale that sales still pay. Empty: ${group ? "the group's, else the program's" : "the program's"}.</span></label>
<label>Payout method <select name="payout_method">${option('', p.payoutMethod, 'not given')}${PAYOUT_METHODS.map((m) => option(m, p.payoutMethod, PAYOUT_METHOD_LABELS[m]))}</select></label>
<label>Payout details <textarea name="payout_details" maxlength="1000">${p.payoutDetails ?? ''}</textarea>
<span class="muted">PayPal or Wise: the partner's email there. Stripe: their connected account id (acct_…). Bank: account holder, IBAN or account number.</span></label>
<div><button>Save</button></div></form></section>
<section class="panel"><h2>Sessions and removal</h2><div class="row">
<form method="post" action="${base}/sign-out" data-confirm="Sign this partner out of every browser? Their unused portal links stop working too.">${csrfField(csrf)}<button class="quiet">Sign out everywhere</button></form>
${
  (f?.sales ?? 0) > 0
    ? html`</div><p class="muted">${nameOf(p)} has sales, so the partner stays in the ledger and cannot be deleted: suspend them instead (their links stop counting).</p></section>`
    : html`<form method="post" action="${base}/delete" data-confirm="Delete ${nameOf(p)}? This cannot be undone. Their links stop working.">${csrfField(csrf)}<button class="danger">Delete partner</button></form></div>
<p class="muted">A partner without sales can be deleted.</p></section>`
}`
}

/** GET /dashboard/programs/:id/applications: the pending applications with Approve and Reject. */
export function applicationsPage(
  program: Program,
  data: { pending: Partner[]; csrf: string; mail: Mail['delivery']; joinUrl: string },
): Safe {
  const base = `/dashboard/programs/${program.id}/partners`
  return html`${programHeader(program, '/applications')}
<section class="panel"><h2>Applications <span class="muted">(${count(data.pending.length)} waiting)</span></h2>
<p class="muted">${program.partnerSignup === 'off' ? 'The join page is off (Settings).' : html`People apply at <a href="${data.joinUrl}">${data.joinUrl}</a>.`}
${' Approving emails the partner their link and a portal sign-in link; rejecting emails your note.'}${
  data.mail === 'log'
    ? html` This server has no SMTP_URL: the link was written to the server's log instead (one line per email, starting svc: mail to).`
    : data.mail === 'off'
      ? ' This server sends no email and logs none (MAIL_LOG=off): send the partner a portal link from their page.'
      : ''
}</p>
${
  data.pending.length === 0
    ? html`<p class="muted">No application waits.</p>`
    : data.pending.map(
        (
          p,
        ) => html`<article class="application" data-application="${p.id}"><div class="row spread"><div><b>${nameOf(p)}</b> <span class="muted">${p.email ?? ''} · applied ${when(p.createdAt)}</span></div></div>
${p.website ? html`<p><span class="muted">Website:</span> ${p.website}</p>` : ''}${p.promotion ? html`<p><span class="muted">How they will promote:</span> ${p.promotion}</p>` : ''}
${p.wishedShortLink ? html`<p><span class="muted">Wished short link:</span> <code>${p.wishedShortLink}</code></p>` : ''}
<div class="row"><form method="post" action="${base}/${p.id}/status">${csrfField(data.csrf)}<input type="hidden" name="action" value="approve"><input type="hidden" name="back" value="applications"><button>Approve</button></form>
<form class="row" method="post" action="${base}/${p.id}/status" data-confirm="Reject this application?">${csrfField(data.csrf)}<input type="hidden" name="action" value="reject"><input type="hidden" name="back" value="applications">
<input name="reason" maxlength="1000" placeholder="A note for them (optional)" aria-label="Reason"><button class="quiet">Reject</button></form></div></article>`,
      )
}</section>`
}

/**
 * A partner's coupon codes: a sale naming one (coupon_code, or a Stripe promotion code on the
 * checkout or invoice) is credited to this partner when its customer has no partner yet.
 */
function couponsPanel(program: Program, p: Partner, coupons: Coupon[], csrf: string): Safe {
  const rows = coupons.map(
    (c) =>
      html`<tr><td><code>${c.code}</code></td><td>${c.stripePromotionCode ? html`<code>${c.stripePromotionCode}</code>` : html`<span class="muted">none</span>`}</td>
<td><form method="post" action="/dashboard/programs/${program.id}/coupons/${c.id}/delete" data-confirm="Delete the coupon ${c.code}? Later sales naming it are credited to nobody.">${csrfField(csrf)}<button class="quiet">Delete</button></form></td></tr>`,
  )
  return html`<section class="panel" id="coupons"><h2>Coupon codes</h2>
<p class="muted">For partners whose audience types a code instead of clicking (podcasts, video, Instagram). A sale that names the code (<code>coupon_code</code>, or the Stripe promotion code on the checkout or invoice) is credited to ${nameOf(p)} when its customer has no partner yet; a customer who came through another partner's link stays theirs.</p>
${coupons.length === 0 ? html`<p class="muted">No coupon yet.</p>` : html`<table><thead><tr><th>Code</th><th>Stripe promotion code</th><th></th></tr></thead><tbody>${rows}</tbody></table>`}
<form class="row" method="post" action="/dashboard/programs/${program.id}/partners/${p.id}/coupons">${csrfField(csrf)}
<label>Code <input name="code" pattern="[A-Za-z0-9_\\-]{1,64}" maxlength="64" required placeholder="PODCAST20"></label>
<label>Stripe promotion code <input name="stripe_promotion_code" pattern="promo_[A-Za-z0-9]{1,249}" maxlength="255" placeholder="promo_… (optional)"></label>
<button class="quiet">Add coupon</button></form></section>`
}
