import { Elysia } from 'elysia'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../db/schema.ts'
import { addEndpoint, catchUpDeliveries, presentDelivery, presentEndpoint, sendTest } from '../../tracking/webhook-endpoints.ts'
import type { Deps } from '../deps.ts'
import { keyActorOf, requireManageKey } from '../pipeline/auth.ts'
import { noBody } from '../pipeline/body.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { t } from 'elysia'

const AddWebhook = t.Object({
  url: t.String({ minLength: 1, maxLength: 2000, error: 'url must be an http(s) URL of at most 2000 characters' }),
  events: t.Optional(
    t.Array(t.Union(WEBHOOK_EVENT_TYPES.map((type) => t.Literal(type))), {
      minItems: 1,
      maxItems: 20,
      error: `events must be a list of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    }),
  ),
  description: t.Optional(t.String({ maxLength: 500, error: 'description must be a text of at most 500 characters' })),
})
const checkAdd = bodyChecker(AddWebhook)

/**
 * The key's program's webhook endpoints for `svc webhooks` (list, add, test, deliveries): the
 * operator API's, scoped by the program key instead of the admin token.
 */
export function cliWebhookRoutes(deps: Deps) {
  const { webhooks } = deps.database.stores
  const ownEndpoint = (request: Request, id: string) => {
    const { program } = requireManageKey(deps, request)
    const endpoint = Number.isSafeInteger(Number(id)) ? webhooks.find(Number(id)) : null
    if (!endpoint || endpoint.programId !== program.id) throw new HttpError(404, 'Webhook not found')
    return endpoint
  }
  const security = 'programKey' as const
  return new Elysia({ name: 'cli-webhooks' })
    .get(
      '/api/v1/cli/webhooks',
      ({ request }) => {
        const { program } = requireManageKey(deps, request)
        return ok(webhooks.list(program.id).map(presentEndpoint))
      },
      { detail: doc("The key's program's webhook endpoints (no secret)", 'cli', { security }) },
    )
    .post(
      '/api/v1/cli/webhooks',
      async ({ request, body, set }) => {
        const match = requireManageKey(deps, request)
        const input = checkAdd(body)
        const added = await addEndpoint(deps, keyActorOf(match, request), deps.config.webhooksAllowPrivate, {
          programId: match.program.id,
          url: input.url,
          events: input.events as WebhookEventType[] | undefined,
          description: input.description ?? null,
        })
        if ('refused' in added) throw new HttpError(400, added.refused)
        set.status = 201
        return ok({ ...presentEndpoint(added.endpoint), secret: added.secret })
      },
      { detail: doc('Add a webhook endpoint; answers its signing secret, shown only here', 'cli', { security, body: AddWebhook }) },
    )
    .post(
      '/api/v1/cli/webhooks/:id/test',
      async ({ request, params, body }) => {
        const endpoint = ownEndpoint(request, params.id)
        noBody(body)
        return ok(presentDelivery(await sendTest(deps, endpoint, deps.webhookPool.attemptNow)))
      },
      { detail: doc('Send a webhook.test event now, outside the delivery pool; answers its delivery within 10 s', 'cli', { security }) },
    )
    .get(
      '/api/v1/cli/webhooks/:id/deliveries',
      async ({ request, params }) => {
        const endpoint = ownEndpoint(request, params.id)
        await catchUpDeliveries(deps)
        return ok(webhooks.deliveries(endpoint.id, undefined, 50, null).map(presentDelivery))
      },
      { detail: doc("An endpoint's latest 50 deliveries, newest first", 'cli', { security }) },
    )
}
