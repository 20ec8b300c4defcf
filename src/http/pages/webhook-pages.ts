import { type Program, WEBHOOK_EVENT_TYPES } from '../../db/schema.ts'
import type { ListedDelivery, WebhookEndpoint } from '../../db/webhook-store.ts'
import { when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { copyField, programHeader } from './owner-pages.ts'

/** What the page shows once, right after it was made: a new endpoint's or a rotated secret. */
export interface Shown {
  webhookId: number
  secret: string
}

function deliveriesTable(rows: ListedDelivery[]): Safe {
  if (rows.length === 0) return html`<p class="muted">No delivery yet.</p>`
  return html`<table><thead><tr><th>Event</th><th>Status</th><th class="n">Attempts</th><th class="hide-narrow">Last answer</th><th class="hide-narrow">When</th></tr></thead><tbody>${rows.map(
    (d) => html`<tr data-delivery="${d.id}"><td>${d.type}<div class="muted"><code>${d.eventKey}</code></div></td>
<td><span class="badge status-${d.status === 'delivered' ? 'active' : d.status === 'failed' ? 'rejected' : 'pending'}">${d.status}</span>${d.status === 'pending' && d.attempts > 0 ? html`<div class="muted">retry ${when(d.nextAttemptAt)}</div>` : ''}</td>
<td class="n">${d.attempts}</td><td class="hide-narrow">${d.lastStatusCode ?? ''} ${d.lastError ?? ''}</td><td class="hide-narrow">${when(d.deliveredAt ?? d.createdAt)}</td></tr>`,
  )}</tbody></table>`
}

/**
 * GET /dashboard/programs/:id/webhooks: each endpoint with its latest deliveries and its actions
 * (send a test, retry, turn off or on, rotate the secret, delete), and the form to add one.
 */
export function webhooksPage(
  program: Program,
  data: {
    endpoints: { endpoint: WebhookEndpoint; deliveries: ListedDelivery[] }[]
    csrf: string
    shown: Shown | null
    /** A refused add: what was typed, kept in the form, and why it was refused. */
    draft?: { form: Record<string, string>; problem: string }
  },
): Safe {
  const typed = data.draft?.form ?? {}
  const base = `/dashboard/programs/${program.id}/webhooks`
  const { csrf } = data
  const action = (endpoint: WebhookEndpoint, path: string, label: string, extra: Safe | string = '', confirm?: string) =>
    html`<form method="post" action="${base}/${endpoint.id}/${path}"${confirm ? html` data-confirm="${confirm}"` : ''}>${csrfField(csrf)}${extra}<button class="quiet">${label}</button></form>`
  return html`${programHeader(program, '/webhooks')}
${data.shown ? html`<section class="note" role="status"><h2>Signing secret</h2><p>Shown only this once: your receiver verifies each delivery with it (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).</p>${copyField('webhook-secret', data.shown.secret, 'Signing secret')}</section>` : ''}
${
  data.endpoints.length === 0
    ? html`<section class="panel"><p class="muted">No endpoint yet. Add one below: svc then posts each event of this program to it, signed, and retries what fails.</p></section>`
    : data.endpoints.map(
        ({
          endpoint: e,
          deliveries,
        }) => html`<section class="panel" data-webhook="${e.id}"><div class="row spread"><h2><code>${e.url}</code></h2>${e.active ? html`<span class="badge status-active">on</span>` : html`<span class="badge status-suspended">off</span>`}</div>
${e.description ? html`<p>${e.description}</p>` : ''}<p class="muted">Events: ${e.events.join(', ')}${e.disabledAt ? html` · turned off after 3 days of failures on ${when(e.disabledAt)}` : ''}</p>
<div class="row">${action(e, 'test', 'Send test')}${action(e, 'retry', 'Retry undelivered')}${action(e, 'active', e.active ? 'Turn off' : 'Turn on', html`<input type="hidden" name="active" value="${e.active ? 'false' : 'true'}">`)}
${action(e, 'secret', 'New secret', '', 'Make a new signing secret? The current one keeps signing for 24 hours.')}${action(e, 'delete', 'Delete', '', 'Delete this endpoint? It gets no more events.')}</div>
<h3>Latest deliveries</h3>${deliveriesTable(deliveries)}</section>`,
      )
}
<section class="panel" id="add-endpoint"><h2>Add an endpoint</h2>${data.draft ? html`<p class="error" role="alert" data-field="url">${data.draft.problem}</p>` : ''}<form class="stack" method="post" action="${base}">${csrfField(csrf)}
<label>URL <input name="url" type="url" maxlength="2000" required placeholder="https://hooks.example.com/svc" value="${typed.url ?? ''}"></label>
<label>Description (optional) <input name="description" maxlength="500" value="${typed.description ?? ''}"></label>
<fieldset class="events"><legend>Events (none checked: all of them)</legend>${WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test').map(
    (t) =>
      html`<label class="check"><input type="checkbox" name="event_${t}" value="1"${typed[`event_${t}`] === '1' ? html` checked` : ''}> ${t}</label>`,
  )}</fieldset>
<div><button>Add endpoint</button></div></form></section>`
}
