import { and, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import { links, partners, programs } from '../../db/schema'
import { catalogChanged } from '../../db/catalog'
import type { Deps } from '../deps'
import { doc } from '../docs'
import { HttpError, ok } from '../envelope'
import { bodyChecker } from '../validate'
import { idParam, requireAdmin } from './guard'
import { CreateLink, CreatePartner, UpdateLink } from './schemas'

const checkPartner = bodyChecker(CreatePartner)
const checkLink = bodyChecker(CreateLink)
const checkLinkUpdate = bodyChecker(UpdateLink)

/** The operator API's partner and referral-link routes. */
export function linkAdminRoutes(deps: Deps) {
  const { db, writer } = deps.database
  const requireProgram = (id: number) => {
    if (!db.select({ id: programs.id }).from(programs).where(eq(programs.id, id)).get()) throw new HttpError(404, 'Program not found')
  }

  return new Elysia({ name: 'admin-links' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post('/api/v1/admin/programs/:id/partners', async ({ params, body, set }) => {
      const programId = idParam(params.id, 'Program')
      const input = checkPartner(body)
      const partner = await writer.run(() => {
        requireProgram(programId)
        return db.insert(partners).values({ programId, name: input.name, email: input.email, createdAt: deps.clock.now() })
          .returning({ id: partners.id }).get()
      })
      set.status = 201
      return ok({ partner_id: partner.id })
    }, { detail: doc('Add a partner to a program', 'operator', { security: 'adminToken', body: CreatePartner }) })
    .post('/api/v1/admin/programs/:id/links', async ({ params, body, set }) => {
      const programId = idParam(params.id, 'Program')
      const input = checkLink(body)
      const link = await writer.run(() => {
        requireProgram(programId)
        const partner = db.select({ id: partners.id }).from(partners)
          .where(and(eq(partners.id, input.partner_id), eq(partners.programId, programId))).get()
        if (!partner) throw new HttpError(400, 'partner_id must be the id of a partner of this program')
        // short_link is globally UNIQUE in the schema: the constraint, not this read, decides.
        return db.insert(links).values({ programId, partnerId: partner.id, shortLink: input.short_link, createdAt: deps.clock.now() })
          .returning({ id: links.id, shortLink: links.shortLink }).get()
      }).catch((error) => {
        if (String(error).includes('UNIQUE')) throw new HttpError(409, 'short_link is already taken')
        throw error
      })
      set.status = 201
      return ok({ link_id: link.id, short_link: link.shortLink, active: true })
    }, { detail: doc('Create a referral link (short_link globally unique)', 'operator', { security: 'adminToken', body: CreateLink }) })
    .patch('/api/v1/admin/links/:id', async ({ params, body }) => {
      const id = idParam(params.id, 'Link')
      const { active } = checkLinkUpdate(body)
      await writer.run(() => {
        const result = db.update(links).set({ active }).where(eq(links.id, id)).returning({ id: links.id }).all()
        if (result.length === 0) throw new HttpError(404, 'Link not found')
      })
      // A link turned off answers 410 from the next click on.
      catalogChanged(deps.database)
      return ok({ link_id: id, active })
    }, { detail: doc('Turn a referral link on or off', 'operator', { security: 'adminToken', body: UpdateLink }) })
}
