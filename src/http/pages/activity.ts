import { Elysia } from 'elysia'
import { AUDIT_ACTIONS } from '../../domain/audit.ts'
import { presentAudit } from '../../tracking/audit.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { auditFilterOf } from '../pipeline/filters.ts'
import { pageKit, positiveId, type Query } from './guard.ts'
import { html, type Safe } from './html.ts'
import { programHeader } from './owner-pages.ts'

const PAGE = 50
/** The "what" choices: every action of one object (`payout.`), then each action. */
const objects = [...new Set(AUDIT_ACTIONS.map((a) => `${a.split('.')[0]}.`))]

type Entry = ReturnType<typeof presentAudit>

/** A value in words: text as it is, anything else as JSON. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** An entry's details in words: `key: value` pairs, a change as `key: before → after`. */
const detailsOf = (details: Record<string, unknown>) =>
  Object.entries(details)
    .map(([k, v]) => {
      const change = v && typeof v === 'object' && 'from' in v && 'to' in v ? (v as { from: unknown; to: unknown }) : null
      return change ? `${k}: ${shown(change.from)} → ${shown(change.to)}` : `${k}: ${shown(v)}`
    })
    .join(', ')

/** The Activity page: the filters (who, what, dates) and the entries, newest first, with an "Older" link. */
function activityPage(base: string, entries: Entry[], next: string | null, query: Query, problem: string | null): Safe {
  const option = (value: string, label: string) =>
    html`<option value="${value}"${query.action === value ? ' selected' : ''}>${label}</option>`
  const filters = html`<form class="row filters" method="get" action="${base}/activity">
<label>Who <input name="actor" value="${query.actor ?? ''}" maxlength="254" placeholder="email, operator, key:…"></label>
<label>What <select name="action">${option('', 'everything')}${objects.map((o) => option(o, `${o.slice(0, -1)}: all`))}${AUDIT_ACTIONS.map((a) => option(a, a))}</select></label>
<label>From <input type="date" name="from" value="${query.from ?? ''}"></label><label>To <input type="date" name="to" value="${query.to ?? ''}"></label>
<button class="quiet">Filter</button></form>`
  const rows = entries.map(
    (
      e,
    ) => html`<tr><td data-label="When" class="nowrap">${String(e.at).replace('T', ' ').slice(0, 19)}</td><td data-label="Who">${e.actor as string}</td>
<td data-label="What" class="nowrap"><b>${e.action as string}</b></td><td data-label="Object" class="nowrap">${e.object_type as string} ${e.object_id as string}</td>
<td data-label="IP" class="nowrap">${(e.ip as string | null) ?? '–'}</td><td data-label="Details" class="details">${detailsOf(e.details as Record<string, unknown>)}</td></tr>`,
  )
  const keep = new URLSearchParams(Object.entries(query).filter(([k, v]) => k !== 'cursor' && v) as [string, string][])
  if (next) keep.set('cursor', next)
  return html`<section class="panel"><h2>Activity</h2><p class="muted">Every change of money or access: who, what, when, from which IP. Entries are never changed or deleted.</p>
${filters}${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
${
  entries.length === 0
    ? html`<p class="muted">Nothing recorded${query.actor || query.action || query.from || query.to ? ' for these filters' : ' yet'}.</p>`
    : html`<table class="stacked"><thead><tr><th>When (UTC)</th><th>Who</th><th>What</th><th>Object</th><th>IP</th><th>Details</th></tr></thead><tbody>${rows}</tbody></table>`
}
${next ? html`<p><a class="button quiet" href="${base}/activity?${keep.toString()}">Older</a></p>` : ''}</section>`
}

/** GET /dashboard/programs/:id/activity (docs/decisions.md, Teams and the audit log): a viewer's too. */
export function activityRoutes(deps: Deps) {
  const { stores, ownerPage } = pageKit(deps)
  return new Elysia({ name: 'activity' }).get(
    '/dashboard/programs/:id/activity',
    ownerPage(({ program, accountId, query }) => {
      const base = `/dashboard/programs/${program.id}`
      let filter: ReturnType<typeof auditFilterOf> = {}
      let problem: string | null = null
      try {
        filter = auditFilterOf(query)
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
        problem = error.message
      }
      const before = positiveId(query.cursor)
      const rows = stores.audit.listForProgram(program.id, accountId, { ...filter, before, limit: PAGE })
      const more = rows.length > PAGE
      const shown = (more ? rows.slice(0, PAGE) : rows).map(presentAudit)
      return html`${programHeader(program, '/activity')}${activityPage(base, shown, more ? String(shown[shown.length - 1]!.audit_id) : null, query, problem)}`
    }, 'Activity'),
    { detail: { hide: true } },
  )
}
