import { Elysia, t } from 'elysia'
import type { DeliveryStatus } from '../../db/webhook-store.ts'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../db/schema.ts'
import {
  addEndpoint,
  catchUpDeliveries,
  checkedUrl,
  presentDelivery,
  presentEndpoint,
  retryDeliveries,
  rotateSecret,
  sendTest,
} from '../../tracking/webhook-endpoints.ts'
import type { Deps } from '../deps.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, listed, operatorActor, page, requireAdmin } from './guard.ts'

const eventsError = `events must be a list of: ${WEBHOOK_EVENT_TYPES.join(', ')}`
const url = t.String({ minLength: 1, maxLength: 2000, error: 'url must be an http(s) URL of at most 2000 characters' })
const events = t.Array(t.Union(WEBHOOK_EVENT_TYPES.map((type) => t.Literal(type))), { minItems: 1, maxItems: 20, error: eventsError })
const description = t.String({ maxLength: 500, error: 'description must be a text of at most 500 characters' })

export const CreateWebhook = t.Object({ url, events: t.Optional(events), description: t.Optional(description) })
export const UpdateWebhook = t.Object({
  url: t.Optional(url),
  events: t.Optional(events),
  description: t.Optional(t.Union([description, t.Null()], { error: 'description must be a text of at most 500 characters' })),
  active: t.Optional(t.Boolean({ error: 'active must be a boolean' })),
})
const checkCreate = bodyChecker(CreateWebhook)
const checkUpdate = bodyChecker(UpdateWebhook)

/** The operator API's webhook endpoints and deliveries (docs/decisions.md, Outbound webhooks). */
export function webhookAdminRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const { webhooks, audit } = stores
  const endpointOf = (id: string) => {
    const endpoint = webhooks.find(idParam(id, 'Webhook'))
    if (!endpoint) throw new HttpError(404, 'Webhook not found')
    return endpoint
  }
  const security = 'adminToken' as const

  return new Elysia({ name: 'admin-webhooks' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/programs/:id/webhooks',
      async ({ request, params, body, set }) => {
        const programId = idParam(params.id, 'Program')
        const input = checkCreate(body)
        if (!stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
        const added = await addEndpoint(deps, operatorActor(request), deps.config.webhooksAllowPrivate, { programId, ...input })
        if ('refused' in added) throw new HttpError(400, added.refused)
        set.status = 201
        return ok({ ...presentEndpoint(added.endpoint), secret: added.secret })
      },
      { detail: doc('Add a webhook endpoint; answers its signing secret, shown only here', 'operator', { security, body: CreateWebhook }) },
    )
    .get(
      '/api/v1/admin/programs/:id/webhooks',
      ({ params }) => {
        const programId = idParam(params.id, 'Program')
        if (!stores.lists.programExists(programId)) throw new HttpError(404, 'Program not found')
        return { data: webhooks.list(programId).map(presentEndpoint), error: null, next_cursor: null }
      },
      { detail: doc("A program's webhook endpoints (no secret)", 'operator', { security }) },
    )
    .patch(
      '/api/v1/admin/webhooks/:id',
      async ({ request, params, body }) => {
        const endpoint = endpointOf(params.id)
        const input = checkUpdate(body)
        const checked = input.url === undefined ? undefined : await checkedUrl(input.url, deps.config.webhooksAllowPrivate)
        if (checked && 'refused' in checked) throw new HttpError(400, checked.refused)
        const target = checked?.url
        const changes = {
          url: target,
          events: input.events && ([...new Set(input.events)] as WebhookEventType[]),
          description: input.description,
          active: input.active,
        }
        const changed = await writer.run(() => {
          const updated = webhooks.update(endpoint.id, changes)
          const details = JSON.parse(JSON.stringify(changes)) as Record<string, unknown>
          audit.write(operatorActor(request), deps.clock.now(), {
            program: endpoint.programId,
            action: 'webhook.update',
            object: ['webhook', endpoint.id],
            details,
          })
          return updated
        })
        return ok(presentEndpoint(changed!))
      },
      { detail: doc('Change a webhook endpoint (url, events, description, active)', 'operator', { security, body: UpdateWebhook }) },
    )
    .delete(
      '/api/v1/admin/webhooks/:id',
      async ({ request, params, body }) => {
        noBody(body)
        const endpoint = endpointOf(params.id)
        await writer.run(() => {
          webhooks.remove(endpoint.id, deps.clock.now())
          const details = { url: endpoint.url }
          audit.write(operatorActor(request), deps.clock.now(), {
            program: endpoint.programId,
            action: 'webhook.delete',
            object: ['webhook', endpoint.id],
            details,
          })
        })
        return ok({ webhook_id: endpoint.id, deleted: true })
      },
      { detail: doc('Delete a webhook endpoint', 'operator', { security }) },
    )
    .post(
      '/api/v1/admin/webhooks/:id/secret',
      async ({ request, params, body }) => {
        noBody(body)
        const endpoint = endpointOf(params.id)
        return ok({ webhook_id: endpoint.id, secret: await rotateSecret(deps, operatorActor(request), endpoint) })
      },
      { detail: doc('A new signing secret; for 24 hours the old one signs too', 'operator', { security }) },
    )
    .post(
      '/api/v1/admin/webhooks/:id/test',
      async ({ params, body }) => {
        noBody(body)
        const endpoint = endpointOf(params.id)
        const delivery = await sendTest(deps, endpoint, deps.webhookPool.attemptNow)
        return ok(presentDelivery(delivery))
      },
      {
        detail: doc('Send a webhook.test event now, outside the delivery pool; answers its delivery within 10 s', 'operator', { security }),
      },
    )
    .get(
      '/api/v1/admin/webhooks/:id/deliveries',
      async ({ params, query }: { params: { id: string }; query: Record<string, string | undefined> }) => {
        const endpoint = endpointOf(params.id)
        const { limit, cursor } = page(query)
        const status = query.status as DeliveryStatus | undefined
        if (status !== undefined && !['pending', 'delivered', 'failed'].includes(status))
          throw new HttpError(400, 'status must be one of: pending, delivered, failed')
        await catchUpDeliveries(deps)
        return listed(webhooks.deliveries(endpoint.id, status, limit + 1, cursor), limit, presentDelivery)
      },
      { detail: doc("An endpoint's deliveries, newest first", 'operator', { security }) },
    )
    .post(
      '/api/v1/admin/webhooks/:id/deliveries/retry',
      async ({ params, body }) => {
        noBody(body)
        const endpoint = endpointOf(params.id)
        const queued = await retryDeliveries(deps, deps.webhookPool.wake, endpoint.id)
        return ok({ webhook_id: endpoint.id, queued })
      },
      { detail: doc('Attempt every undelivered delivery of the endpoint now', 'operator', { security }) },
    )
}
