import { COMMISSION_TYPES, type CommissionType, rateFits } from '../../domain/commission.ts'
import { money } from '../../domain/messages.ts'
import { siteOf } from '../../domain/site.ts'
import { html, type Safe } from './html.ts'

/** A program's terms as the setup page and the dashboard's "New program" form take them. */
export interface ProgramForm {
  name: string
  domain: string
  siteUrl: string
  commissionType: CommissionType
  commissionRate: number
}

/** A form field refused: which one, and the words that say why (the operator API's own). */
export interface FieldProblem {
  field: string
  message: string
}

export type Read<T> = { ok: true; value: T } | ({ ok: false } & FieldProblem)

const refuse = (field: string, message: string): { ok: false } & FieldProblem => ({ ok: false, field, message })

/** The program fields of a form (`prefix` + name, domain, commission_type, commission_rate), or the first refused. */
export function readProgramForm(form: Record<string, string>, prefix = ''): Read<ProgramForm> {
  const name = (form[`${prefix}name`] ?? '').trim()
  if (!name || name.length > 200) return refuse(`${prefix}name`, `${prefix}name must be a non-empty text of at most 200 characters`)
  const site = siteOf(form.domain ?? '')
  if (!site) return refuse('domain', 'domain must be a host name such as shop.example, or a URL such as http://localhost:3901')
  const type = COMMISSION_TYPES.find((t) => t === form.commission_type)
  if (!type) return refuse('commission_type', `commission_type must be one of: ${COMMISSION_TYPES.join(', ')}`)
  const rate = Number(form.commission_rate)
  if (!(rate > 0) || !Number.isFinite(rate)) return refuse('commission_rate', 'commission_rate must be a positive number')
  if (!rateFits(type, rate)) return refuse('commission_rate', money.percentRate)
  return { ok: true, value: { name, ...site, commissionType: type, commissionRate: rate } }
}

/** What each commission type pays, in words (the forms' help and the Quick start). */
export const COMMISSION_WORDS: Record<CommissionType, string> = {
  percent: "a percentage of the customer's first sale only",
  fixed: "a fixed amount on the customer's first sale only",
  recurring_percent: 'a percentage of every sale, renewals included',
  recurring_fixed: 'a fixed amount on every sale, renewals included',
}

/** Each commission type as a select's option says it: short enough for a phone's width. */
export const COMMISSION_LABELS: Record<CommissionType, string> = {
  percent: 'Percent of the first sale',
  fixed: 'Fixed amount on the first sale',
  recurring_percent: 'Percent of every sale (recurring)',
  recurring_fixed: 'Fixed amount on every sale (recurring)',
}

/** The name, domain, type and rate inputs, filled with `values`; `prefix` names the program's name field. */
export function programFields(values: Record<string, string>, prefix = ''): Safe {
  const type = values.commission_type ?? 'percent'
  return html`<label>Program name <input name="${prefix}name" value="${values[`${prefix}name`] ?? ''}" maxlength="200" required placeholder="Shop Partners"></label>
<label>Your site <input name="domain" value="${values.domain ?? ''}" maxlength="300" required placeholder="shop.example">
<span class="muted">Its domain, or its address with scheme and port while you test (http://localhost:3901): partner links are made on it.</span></label>
<label>Commission type <select name="commission_type">${COMMISSION_TYPES.map(
    (t) => html`<option value="${t}"${t === type ? html` selected` : ''}>${COMMISSION_LABELS[t]}</option>`,
  )}</select></label>
<label>Commission rate <input name="commission_rate" value="${values.commission_rate ?? '20'}" inputmode="decimal" required>
<span class="muted">A percentage (at most 100) for the percent types; an amount in the sale's currency (5 is USD 5.00) for the fixed ones.</span></label>`
}
