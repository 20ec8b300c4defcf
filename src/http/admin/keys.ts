import { Elysia, t } from 'elysia'
import { maskKey } from '../../db/credentials.ts'
import type { ApiKey } from '../../db/schema.ts'
import { keys as messages } from '../../domain/messages.ts'
import { iso } from '../../domain/time.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, operatorActor, requireAdmin } from './guard.ts'

/** POST a program key: only `track` keys are made here (the manage key comes with the program and is regenerated). */
export const CreateKey = t.Object({
  scope: t.Literal('track', { error: messages.scope, description: 'track: the track routes, readiness and GET /api/v1/cli/status only' }),
  name: t.Optional(
    t.Union([t.String({ maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]*$' }), t.Null()], {
      error: messages.name,
      description: 'A label of your own ("web server"), at most 100 characters',
    }),
  ),
})
const checkCreate = bodyChecker(CreateKey)

/** A key as listed: masked, with its scope and name; never its secret. */
export function presentKey(key: ApiKey): Record<string, unknown> {
  return {
    key_id: key.id,
    program_id: key.programId,
    scope: key.scope,
    name: key.name,
    api_key: maskKey(key.keyPrefix),
    created_at: iso(key.createdAt),
    rotate_by: iso(key.rotateBy),
  }
}

/**
 * A program's keys (docs/decisions.md, Safety, third round): make a `track` key (shown once), list
 * them masked (the manage key first), delete a track key. The manage key is regenerated, never deleted.
 */
export function keyAdminRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const programOf = (id: string) => {
    const programId = idParam(id, 'Program')
    if (!stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
    return programId
  }
  return new Elysia({ name: 'admin-keys' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/keys',
      async ({ request, params, body, set }) => {
        const programId = programOf(params.id)
        const input = checkCreate(body)
        const name = input.name?.trim() || null
        const made = await writer.run(() => {
          const issued = stores.programs.issueTrackKey(programId, name, deps.clock.now())
          const details = { scope: 'track', name }
          stores.audit.write(operatorActor(request), deps.clock.now(), {
            program: programId,
            action: 'key.create',
            object: ['key', issued.key.id],
            details,
          })
          return issued
        })
        set.status = 201
        return ok({ key_id: made.key.id, scope: made.key.scope, name: made.key.name, api_key: made.apiKey })
      },
      {
        detail: doc('Make a track key: it reports clicks, leads, sales and refunds, and can do nothing else', 'operator', {
          security: 'adminToken',
          body: CreateKey,
        }),
      },
    )
    .get(
      '/api/v1/admin/programs/:id/keys',
      ({ params }) => ({ data: stores.programs.listKeys(programOf(params.id)).map(presentKey), error: null, next_cursor: null }),
      {
        detail: doc("A program's keys, masked: the manage key first, then track keys oldest first", 'operator', { security: 'adminToken' }),
      },
    )
    .delete(
      '/api/v1/admin/keys/:id',
      async ({ request, params, body }) => {
        noBody(body)
        const keyId = idParam(params.id, 'Key')
        await writer.run(() => {
          const key = stores.programs.unrevokedKey(keyId)
          if (!key) throw new HttpError(404, messages.notFound)
          if (key.scope === 'manage') throw new HttpError(409, messages.manage)
          stores.programs.revokeKey(keyId, deps.clock.now())
          const details = { scope: key.scope, name: key.name }
          stores.audit.write(operatorActor(request), deps.clock.now(), {
            program: key.programId,
            action: 'key.delete',
            object: ['key', keyId],
            details,
          })
        })
        return ok({ key_id: keyId, deleted: true })
      },
      { detail: doc('Delete a track key: it answers 401 at once', 'operator', { security: 'adminToken' }) },
    )
}
