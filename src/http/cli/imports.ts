import { Elysia } from 'elysia'
import { cancelImport, presentImport, queueImport } from '../../imports/start.ts'
import type { Deps } from '../deps.ts'
import { keyActorOf, requireManageKey } from '../pipeline/auth.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { CreateImport, checkImport } from '../pipeline/import-body.ts'

/** `svc import`: the operator API's imports, scoped by the program's manage key (docs/decisions.md, Turn 4). */
export function cliImportRoutes(deps: Deps) {
  const { imports } = deps.database.stores
  const security = 'programKey' as const
  return new Elysia({ name: 'cli-imports' })
    .post(
      '/api/v1/cli/imports',
      async ({ request, body, set }) => {
        const match = requireManageKey(deps, request)
        const input = checkImport(body)
        const queued = await queueImport(deps, keyActorOf(match, request), deps.config.allowPrivateUrls, match.program.id, input)
        if ('refused' in queued) throw new HttpError(400, queued.refused)
        set.status = 202
        return ok({ import_id: queued.job.id, status: 'queued' })
      },
      { detail: doc("Import the key's program from another tool, in the background", 'cli', { security, body: CreateImport }) },
    )
    .get(
      '/api/v1/cli/imports/:id',
      ({ request, params }) => {
        const { program } = requireManageKey(deps, request)
        const job = Number.isSafeInteger(Number(params.id)) ? imports.find(Number(params.id)) : null
        if (!job || job.programId !== program.id) throw new HttpError(404, 'Import not found')
        return ok(presentImport(deps, job))
      },
      { detail: doc("An import's status, counts and skipped rows", 'cli', { security }) },
    )
    .post(
      '/api/v1/cli/imports/:id/cancel',
      async ({ request, params }) => {
        const match = requireManageKey(deps, request)
        const job = Number.isSafeInteger(Number(params.id)) ? imports.find(Number(params.id)) : null
        if (!job || job.programId !== match.program.id) throw new HttpError(404, 'Import not found')
        if (!(await cancelImport(deps, keyActorOf(match, request), job))) throw new HttpError(409, 'Import has already ended')
        return ok(presentImport(deps, imports.find(job.id)!))
      },
      { detail: doc("Cancel a queued or running import of the key's program", 'cli', { security }) },
    )
}
