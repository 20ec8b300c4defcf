import type { GroupWithCount } from '../../db/group-store.ts'
import type { PartnerGroup, Program } from '../../db/schema.ts'
import { COMMISSION_TYPES } from '../../domain/commission.ts'
import { controlCharAt } from '../../domain/email.ts'
import type { GroupInput } from '../../tracking/groups.ts'
import type { Form } from './guard.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { barChart } from './chart.ts'
import { count } from './format.ts'
import { copyField, programHeader } from './owner-pages.ts'
import { COMMISSION_LABELS } from './program-form.ts'
import { termsInWords } from './terms.ts'

const SIGNUPS = { off: 'Closed', approval: 'Apply, then approved by you', open: 'Open: approved at once' } as const

/**
 * A group form's fields as the use case takes them (docs/decisions.md, Groups): an empty term is the
 * program's, no coupon id is no discount. The notice key of the first field refused otherwise.
 */
export function readGroupForm(form: Form): { ok: true; value: GroupInput & { name: string } } | { ok: false; refused: string } {
  const text = (name: string) => (form[name] ?? '').trim()
  const refuse = (field: string) => ({ ok: false as const, refused: `group_${field}` })
  const name = text('name')
  if (!name || name.length > 200 || controlCharAt(name, false) >= 0) return refuse('name')
  const type = text('commission_type')
  const commissionType = type === '' ? null : COMMISSION_TYPES.find((t) => t === type)
  if (commissionType === undefined) return refuse('terms')
  const number = (field: string) => (text(field) === '' ? null : Number(text(field)))
  const commissionRate = number('commission_rate')
  if (commissionRate !== null && !(commissionRate > 0 && commissionRate <= 1e9)) return refuse('rate')
  const recurringMonths = number('recurring_months')
  if (recurringMonths !== null && !(Number.isInteger(recurringMonths) && recurringMonths >= 1 && recurringMonths <= 1200))
    return refuse('months')
  const holdingPeriodDays = number('holding_period_days')
  if (holdingPeriodDays !== null && !(Number.isInteger(holdingPeriodDays) && holdingPeriodDays >= 0 && holdingPeriodDays <= 365))
    return refuse('holding')
  const couponId = text('discount_coupon_id')
  const description = text('discount_description')
  if (couponId.length > 255 || controlCharAt(couponId, false) >= 0 || (couponId !== '' && (!description || description.length > 300)))
    return refuse('discount')
  const signup = text('partner_signup')
  const partnerSignup = signup === '' ? null : (['off', 'approval', 'open'] as const).find((s) => s === signup)
  if (partnerSignup === undefined) return refuse('signup')
  return {
    ok: true,
    value: {
      name,
      commissionType,
      commissionRate,
      recurringMonths,
      holdingPeriodDays,
      discount: couponId === '' ? null : { couponId, description },
      partnerSignup,
    },
  }
}

/** The inputs of a group form, filled with `g` (a new group: empty, every term the program's). */
function groupFields(program: Program, g: PartnerGroup | null, id: string): Safe {
  const option = (value: string, current: string | null, label: string) =>
    html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`
  return html`<label>Name <input name="name" value="${g?.name ?? ''}" maxlength="200" required id="${id}-name"></label>
<label>Commission type <select name="commission_type">${option('', g?.commissionType ?? null, `the program's: ${COMMISSION_LABELS[program.commissionType]}`)}${COMMISSION_TYPES.map((t) => option(t, g?.commissionType ?? null, COMMISSION_LABELS[t]))}</select></label>
<label>Commission rate <input name="commission_rate" value="${g?.commissionRate ?? ''}" inputmode="decimal" placeholder="the program's (${program.commissionRate})"></label>
<label>Recurring months <input name="recurring_months" value="${g?.recurringMonths ?? ''}" inputmode="numeric" placeholder="the program's (${program.recurringMonths ?? 'no limit'})"></label>
<label>Holding period (days) <input name="holding_period_days" value="${g?.holdingPeriodDays ?? ''}" inputmode="numeric" placeholder="the program's (${program.holdingPeriodDays})"></label>
<fieldset class="stack"><legend>Discount for the partners' audience (optional)</legend>
<label>Coupon id in your payment processor <input name="discount_coupon_id" value="${g?.discountCouponId ?? ''}" maxlength="255" placeholder="INFLUENCER20"></label>
<label>What they get, in words <input name="discount_description" value="${g?.discountDescription ?? ''}" maxlength="300" placeholder="20% off the first year"></label></fieldset>
<label>Who may join on the group's page <select name="partner_signup">${option('', g?.partnerSignup ?? null, `the program's: ${SIGNUPS[program.partnerSignup]}`)}${(['off', 'approval', 'open'] as const).map((s) => option(s, g?.partnerSignup ?? null, SIGNUPS[s]))}</select></label>`
}

/**
 * GET /dashboard/programs/:id/groups (docs/decisions.md, Groups): each group with its terms in
 * words (the program's where it sets none), its discount, its join page, its partners, a form to
 * change it and, when it has no partner, to delete it; and a form that creates one.
 */
export function groupsPage(program: Program, data: { groups: GroupWithCount[]; csrf: string; baseUrl: string }): Safe {
  const base = `/dashboard/programs/${program.id}`
  const { csrf } = data
  const card = (g: GroupWithCount) => {
    const signup = g.partnerSignup ?? program.partnerSignup
    return html`<section class="panel group" id="group-${g.id}" data-group="${g.id}"><div class="row spread"><h2>${g.name}</h2>
<a href="${base}/partners?group_id=${g.id}">${g.partners} partner${g.partners === 1 ? '' : 's'}</a></div>
<p><span class="muted">Paid:</span> ${termsInWords(program, null, g)}; payable ${g.holdingPeriodDays ?? program.holdingPeriodDays} days after the sale.</p>
<p><span class="muted">Their audience gets:</span> ${g.discountDescription ? html`${g.discountDescription} <span class="muted">(coupon <code>${g.discountCouponId}</code>)</span>` : 'no discount'}</p>
${
  signup === 'off'
    ? html`<p class="muted">No join page: who may join is closed${g.partnerSignup === null ? " (the program's setting)" : ''}.</p>`
    : html`<div><span class="muted">Join page (${SIGNUPS[signup].toLowerCase()}):</span> ${copyField(`join-${g.id}`, `${data.baseUrl}/join/${program.id}/${g.id}`)}</div>`
}
<details><summary>Change</summary><form class="stack" method="post" action="${base}/groups/${g.id}">${csrfField(csrf)}${groupFields(program, g, `group-${g.id}`)}
<div><button>Save group</button></div></form></details>
${
  g.partners === 0
    ? html`<form method="post" action="${base}/groups/${g.id}/delete" data-confirm="Delete the group ${g.name}? This cannot be undone.">${csrfField(csrf)}<button class="danger">Delete group</button></form>`
    : html`<p class="muted">A group with partners cannot be deleted: move them to another group on their pages first.</p>`
}</section>`
  }
  return html`${programHeader(program, '/groups')}
<p class="muted">A group gives its partners their own terms, a discount for their audience and their own join page. Each term left empty is the program's; a partner's own terms come before their group's.</p>
${data.groups.length === 0 ? html`<section class="panel"><p class="muted">No group yet: every partner is paid by the program's terms. Create one below.</p></section>` : data.groups.map(card)}
<section class="panel" id="create-group"><h2>Create a group</h2><form class="stack" method="post" action="${base}/groups">${csrfField(csrf)}${groupFields(program, null, 'new-group')}
<div><button>Create group</button></div></form></section>`
}

/** Clicks and sales per day of each partner group (docs/decisions.md, Groups: charts per group on the overview). */
export function groupCharts(
  groups: { names: Map<number, string>; days: Map<number, { clicks: number; sales: number }[]> },
  labels: string[],
  span: number,
  base: string,
): Safe {
  if (groups.names.size === 0) return html``
  const ids = [...groups.names.keys(), ...(groups.days.has(0) ? [0] : [])]
  const empty = Array.from({ length: span }, () => ({ clicks: 0, sales: 0 }))
  return html`<h2>By group, last ${span} days <span class="muted">(<a href="${base}/groups">groups</a>)</span></h2>
<div class="charts" data-group-charts>${ids.flatMap((id) => {
    const name = id === 0 ? 'No group' : (groups.names.get(id) ?? `Group ${id}`)
    const points = groups.days.get(id) ?? empty
    return [
      barChart(
        `${name}: clicks`,
        points.map((p) => p.clicks),
        labels,
        { format: count },
      ),
      barChart(
        `${name}: sales`,
        points.map((p) => p.sales),
        labels,
        { format: count },
      ),
    ]
  })}</div>`
}

/** The partner page's bonus form (docs/decisions.md, Groups: bonuses). */
export function bonusPanel(program: Program, partnerId: number, csrf: string): Safe {
  return html`<section class="panel" id="bonus"><h2>Bonus</h2><p class="muted">A one-off amount for this partner, paid with their commissions after the holding period.</p>
<form class="stack" method="post" action="/dashboard/programs/${program.id}/partners/${partnerId}/bonuses">${csrfField(csrf)}
<div class="row"><label>Amount <input name="amount" inputmode="decimal" required placeholder="50.00"></label>
<label>Currency <select name="currency">${program.currencies.map((c) => html`<option>${c}</option>`)}</select></label></div>
<label>Why <input name="description" maxlength="500" required placeholder="Launch week top referrer"></label>
<div><button>Book bonus</button></div></form></section>`
}
