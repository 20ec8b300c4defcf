import { Elysia } from 'elysia'
import { cancelImport, presentImport, queueImport } from '../../imports/start.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { CreateImport, checkImport } from '../pipeline/import-body.ts'
import { idParam, operatorActor, requireAdmin } from './guard.ts'

/** The operator API's imports: start one for a program, read its state. */
export function importAdminRoutes(deps: Deps) {
  const { stores } = deps.database
  const security = 'adminToken' as const
  return new Elysia({ name: 'admin-imports' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/imports',
      async ({ params, body, set, request }) => {
        const programId = idParam(params.id, 'Program')
        const input = checkImport(body)
        if (!stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
        const queued = await queueImport(deps, operatorActor(request), deps.config.allowPrivateUrls, programId, input)
        if ('refused' in queued) throw new HttpError(400, queued.refused)
        set.status = 202
        return ok({ import_id: queued.job.id, status: 'queued' })
      },
      {
        detail: doc('Import a program from Rewardful, Tolt, FirstPromoter or PartnerStack, in the background', 'operator', {
          security,
          body: CreateImport,
        }),
      },
    )
    .get(
      '/api/v1/admin/imports/:id',
      ({ params }) => {
        const job = stores.imports.find(idParam(params.id, 'Import'))
        if (!job) throw new HttpError(404, 'Import not found')
        return ok(presentImport(deps, job))
      },
      { detail: doc("An import's status, counts and skipped rows", 'operator', { security }) },
    )
    .post(
      '/api/v1/admin/imports/:id/cancel',
      async ({ params, request }) => {
        const job = stores.imports.find(idParam(params.id, 'Import'))
        if (!job) throw new HttpError(404, 'Import not found')
        if (!(await cancelImport(deps, operatorActor(request), job))) throw new HttpError(409, 'Import has already ended')
        return ok(presentImport(deps, stores.imports.find(job.id)!))
      },
      { detail: doc('Cancel a queued or running import: it ends failed with the error "canceled"', 'operator', { security }) },
    )
}
