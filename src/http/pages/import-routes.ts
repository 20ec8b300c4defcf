import { Elysia } from 'elysia'
import { IMPORT_SOURCES, type ImportSource } from '../../domain/imports.ts'
import { cancelImport, queueImport } from '../../imports/start.ts'
import type { Deps } from '../deps.ts'
import { forRole, pageKit, whoOf } from './guard.ts'
import { html } from './html.ts'
import { importNotices, importPage } from './import-pages.ts'
import { page } from './layout.ts'

const SHOWN = 10
const SKIPS_SHOWN = 200

/** Settings → Import: start an import with the form, follow it on the page (docs/imports.md). */
export function importRoutes(deps: Deps) {
  const { stores, ownerPage, ownerPost, back, baseUrl: publicUrl } = pageKit(deps)
  const { imports } = stores
  const notice = (query: Record<string, string | undefined>) => {
    const done = query.done && importNotices[query.done]
    const error = query.error && importNotices[query.error]
    return html`${done ? html`<p class="note" role="status">${done}</p>` : ''}${error ? html`<p class="error" role="alert">${error}</p>` : ''}`
  }
  return new Elysia({ name: 'imports' })
    .get(
      '/dashboard/programs/:id/settings/import',
      ownerPage(({ program, signed, role, query }) => {
        const shown = imports.listOf(program.id, SHOWN).map((job) => ({
          job,
          skipped: imports.skipped(job.id, SKIPS_SHOWN),
          skippedCount: imports.skippedCount(job.id),
        }))
        const body = html`${notice(query)}${importPage(program, { imports: shown, csrf: signed.csrf, baseUrl: publicUrl })}`
        // While an import runs the page follows it: a reload every 3 seconds.
        const running = shown.some((s) => s.job.status === 'queued' || s.job.status === 'running')
        // Its own Response (for the refresh header): the forms the role may not send are taken out here, as ownerPage does.
        return page({ title: `Import · ${program.name}`, who: whoOf(signed) }, forRole(role, body), 200, running ? { refresh: '3' } : {})
      }, 'Import'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/import',
      ownerPost(async ({ by, program, form }) => {
        const source = form.source as ImportSource
        if (!IMPORT_SOURCES.includes(source)) return back(program, '/settings/import', 'import_source', 'error')
        const apiKey = (form.api_key ?? '').trim()
        if (!apiKey || apiKey.length > 500) return back(program, '/settings/import', 'import_key', 'error')
        const sourceProgramId = (form.source_program_id ?? '').trim().slice(0, 200) || undefined
        const accountId = (form.account_id ?? '').trim().slice(0, 200) || undefined
        if (source === 'tolt' && !sourceProgramId) return back(program, '/settings/import', 'import_tolt', 'error')
        if (source === 'firstpromoter' && !accountId) return back(program, '/settings/import', 'import_firstpromoter', 'error')
        const baseUrl = (form.base_url ?? '').trim() || undefined
        const queued = await queueImport(deps, by, deps.config.allowPrivateUrls, program.id, {
          source,
          base_url: baseUrl,
          api_key: apiKey,
          source_program_id: sourceProgramId,
          account_id: accountId,
          dry_run: form.dry_run === '1',
        })
        if ('refused' in queued) return back(program, '/settings/import', 'import_url', 'error')
        return back(program, '/settings/import', 'import_started')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/import/:importId/cancel',
      ownerPost(async ({ by, program, params }) => {
        const id = Number(params.importId)
        const job = Number.isSafeInteger(id) ? imports.find(id) : null
        if (!job || job.programId !== program.id) return back(program, '/settings/import', 'import_gone', 'error')
        const canceled = await cancelImport(deps, by, job)
        return back(program, '/settings/import', canceled ? 'import_canceled' : 'import_ended', canceled ? 'done' : 'error')
      }),
      { detail: { hide: true } },
    )
}
