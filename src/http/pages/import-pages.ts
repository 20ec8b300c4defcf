// Settings → Import (docs/imports.md): the form that starts an import from another tool, and each
// import of the program with its progress, counts and skipped rows. While one runs, the page
// reloads itself every few seconds (the Refresh header: no script needed).
import type { Import, Program } from '../../db/schema.ts'
import type { Skip } from '../../db/import-store.ts'
import { IMPORT_SOURCES, type ImportSource, SOURCE_LINK_PARAMS } from '../../domain/imports.ts'
import { when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { programHeader } from './owner-pages.ts'

const LABELS: Record<ImportSource, string> = {
  rewardful: 'Rewardful',
  tolt: 'Tolt',
  firstpromoter: 'FirstPromoter',
  partnerstack: 'PartnerStack',
}

/** The notices of the import form, by code (never echoed from the query). */
export const importNotices: Record<string, string> = {
  import_started: 'Import started: it runs in the background, and this page follows it.',
  import_key: 'Enter the source’s API key.',
  import_source: 'Choose the tool to import from.',
  import_url: 'The source address is not an http(s) URL, or points at a private address (set ALLOW_PRIVATE_URLS=true to allow it).',
  import_tolt: 'Tolt needs its program id.',
  import_firstpromoter: 'FirstPromoter needs its account id.',
  import_canceled: 'Import canceled: what it had written stays; its key is deleted.',
  import_ended: 'That import had already ended.',
  import_gone: 'No such import in this program.',
}

export interface ShownImport {
  job: Import
  skipped: Skip[]
  skippedCount: number
}

const badge = (status: Import['status']) =>
  html`<span class="badge status-${status === 'done' ? 'active' : status === 'failed' ? 'rejected' : 'pending'}">${status}</span>`

function progress(job: Import): Safe {
  if (job.status === 'queued') return html`<p class="muted">Waiting to start…</p>`
  if (job.status !== 'running') return html``
  return job.phase === 'read'
    ? html`<p>Reading ${LABELS[job.source]}: <b>${job.readRows}</b> rows so far. <progress aria-label="Reading"></progress></p>`
    : html`<p>Writing: <b>${job.counts.partners}</b> partners, <b>${job.counts.commissions}</b> commissions so far. <progress aria-label="Writing"></progress></p>`
}

/** The Cancel button of a queued or running import. */
const cancelForm = (base: string, job: Import, csrf: string) =>
  job.status === 'queued' || job.status === 'running'
    ? html`<form method="post" action="${base}/${job.id}/cancel" data-confirm="Cancel this import? What it has written stays; run it again to add the rest.">${csrfField(csrf)}<button class="danger">Cancel</button></form>`
    : ''

function importPanel(shown: ShownImport, base: string, csrf: string): Safe {
  const { job } = shown
  const counts = Object.entries(job.counts)
  return html`<section class="panel" data-import="${job.id}"><h2>${LABELS[job.source]} ${badge(job.status)}${job.dryRun ? html` <span class="muted">dry run</span>` : ''}</h2>
<p class="muted">Import #${job.id}, started ${when(job.startedAt ?? job.createdAt)}${job.finishedAt ? html`, ended ${when(job.finishedAt)}` : ''}.</p>
${progress(job)}${cancelForm(base, job, csrf)}${job.error ? html`<p class="error" role="alert">${job.error}</p>` : ''}
<table><thead><tr><th>${job.dryRun ? 'Would add' : 'Added'}</th><th class="n">Rows</th></tr></thead><tbody>${counts.map(([k, v]) => html`<tr><td>${k}</td><td class="n">${v}</td></tr>`)}</tbody></table>
${
  shown.skippedCount === 0
    ? ''
    : html`<details><summary>Skipped ${shown.skippedCount}</summary><table><thead><tr><th>Kind</th><th>Source id</th><th>Reason</th></tr></thead><tbody>${shown.skipped.map(
        (s) => html`<tr><td>${s.kind}</td><td><code>${s.sourceId}</code></td><td>${s.reason}</td></tr>`,
      )}</tbody></table></details>`
}</section>`
}

/** GET /dashboard/programs/:id/settings/import. */
export function importPage(program: Program, data: { imports: ShownImport[]; csrf: string; baseUrl: string }): Safe {
  const base = `/dashboard/programs/${program.id}/settings/import`
  return html`${programHeader(program, '/settings')}
<section class="panel" id="import"><h2>Import from another tool</h2>
<p>Bring your partners, their links (kept exactly, so links already shared keep working), coupons, customers, commissions and paid payouts from Rewardful, Tolt, FirstPromoter or PartnerStack. It runs in the background; run it again later and it adds only what is new. Nothing is emailed to partners.</p>
<form class="stack" method="post" action="${base}">${csrfField(data.csrf)}
<label>Tool <select name="source">${IMPORT_SOURCES.map((s) => html`<option value="${s}">${LABELS[s]}</option>`)}</select></label>
<label>API key <input name="api_key" autocomplete="off" required maxlength="500">
<span class="muted">Rewardful: the API Secret. PartnerStack: PUBLIC_KEY:SECRET_KEY. Stored encrypted, deleted once the tool has been read.</span></label>
<label>Source address <input name="base_url" maxlength="2000" placeholder="the tool's own API address">
<span class="muted">Only to go through a proxy: it replaces the tool's API address.</span></label>
<label>Tolt program id <input name="source_program_id" maxlength="200" placeholder="only for Tolt"></label>
<label>FirstPromoter account id <input name="account_id" maxlength="200" placeholder="only for FirstPromoter"></label>
<label class="check"><input type="checkbox" name="dry_run" value="1"> Dry run: read everything, write nothing, report what would be added</label>
<div><button>Start the import</button></div></form>
<p class="muted">Old links: after an import, add the tool's parameter to the tracker tag, for example <code>data-svc-params="aff,${SOURCE_LINK_PARAMS.rewardful}"</code> for Rewardful (<code>via</code>), <code>ref</code> for Tolt, <code>fpr</code> for FirstPromoter, <code>ps_partner_key</code> for PartnerStack. Tracker: <code>${data.baseUrl}/tracker.js</code>.</p></section>
${data.imports.length === 0 ? html`<p class="muted">No import yet.</p>` : data.imports.map((shown) => importPanel(shown, base, data.csrf))}`
}
