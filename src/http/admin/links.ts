import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, requireAdmin } from './guard.ts'
import { CreateLink, UpdateLink } from './schemas.ts'

const checkLink = bodyChecker(CreateLink)
const checkLinkUpdate = bodyChecker(UpdateLink)

/** The operator API's referral-link routes. */
export function linkAdminRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const requireProgram = (id: number) => {
    if (!stores.lists.programExists(id)) throw new HttpError(404, 'Program not found')
  }

  return new Elysia({ name: 'admin-links' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/links',
      async ({ params, body, set }) => {
        const programId = idParam(params.id, 'Program')
        const input = checkLink(body)
        const link = await writer.run(() => {
          requireProgram(programId)
          if (!stores.programs.partnerOf(programId, input.partner_id))
            throw new HttpError(400, 'partner_id must be the id of a partner of this program')
          // short_link is globally UNIQUE in the schema: the constraint, not a read, decides.
          return stores.programs.createLink({
            programId,
            partnerId: input.partner_id,
            shortLink: input.short_link,
            createdAt: deps.clock.now(),
          })
        })
        if ('kind' in link) throw new HttpError(409, 'short_link is already taken')
        set.status = 201
        return ok({ link_id: link.id, short_link: link.shortLink, active: true })
      },
      { detail: doc('Create a referral link (short_link globally unique)', 'operator', { security: 'adminToken', body: CreateLink }) },
    )
    .patch(
      '/api/v1/admin/links/:id',
      async ({ params, body }) => {
        const id = idParam(params.id, 'Link')
        const { active } = checkLinkUpdate(body)
        // A link turned off answers 410 from the next click on (the store drops the catalog's copy).
        const found = await writer.run(() => stores.programs.setLinkActive(id, active))
        if (!found) throw new HttpError(404, 'Link not found')
        return ok({ link_id: id, active })
      },
      { detail: doc('Turn a referral link on or off', 'operator', { security: 'adminToken', body: UpdateLink }) },
    )
}
