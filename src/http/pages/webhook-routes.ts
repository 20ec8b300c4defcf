import type { Actor } from '../../domain/audit.ts'
import { Elysia } from 'elysia'
import { type Program, WEBHOOK_EVENT_TYPES } from '../../db/schema.ts'
import { addEndpoint, catchUpDeliveries, retryDeliveries, rotateSecret, sendTest } from '../../tracking/webhook-endpoints.ts'
import type { Deps } from '../deps.ts'
import { type Form, notFound, pageKit, positiveId, whoOf } from './guard.ts'
import { html } from './html.ts'
import { page } from './layout.ts'
import * as owner from './owner-pages.ts'
import type { Signed } from './session.ts'
import { type Shown, webhooksPage } from './webhook-pages.ts'

/** The Webhooks page and its forms (docs/decisions.md: endpoints, deliveries with status, retry, send test). */
export function webhookRoutes(deps: Deps) {
  const { writer, stores, now, ownerPage, ownerPost, back } = pageKit(deps)
  const { webhooks } = stores
  const view = (program: Program, signed: Signed, shown: Shown | null, draft?: { form: Form; problem: string }) =>
    webhooksPage(program, {
      endpoints: webhooks
        .list(program.id)
        .map((endpoint) => ({ endpoint, deliveries: webhooks.deliveries(endpoint.id, undefined, 10, null) })),
      csrf: signed.csrf,
      shown,
      draft,
    })
  /** A form on one endpoint of the program: unknown (or another program's) is a 404 page. */
  const onEndpoint = (
    act: (ctx: {
      program: Program
      signed: Signed
      by: Actor
      form: Form
      endpoint: NonNullable<ReturnType<typeof webhooks.find>>
    }) => Promise<Response>,
  ) =>
    ownerPost(async ({ program, signed, by, form, params }) => {
      const id = positiveId(params.webhook_id)
      const endpoint = id === null ? null : webhooks.find(id)
      if (!endpoint || endpoint.programId !== program.id) return notFound(signed)
      return act({ program, signed, by, form, endpoint })
    })
  const shownPage = (program: Program, signed: Signed, shown: Shown) =>
    page({ title: `Webhooks · ${program.name}`, who: whoOf(signed) }, view(program, signed, shown))

  return new Elysia({ name: 'webhooks' })
    .get(
      '/dashboard/programs/:id/webhooks',
      ownerPage(async ({ program, signed, query }) => {
        await catchUpDeliveries(deps)
        return html`${owner.notice(query)}${view(program, signed, null)}`
      }, 'Webhooks'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/webhooks',
      ownerPost(async ({ program, signed, by, form, show }) => {
        const events = WEBHOOK_EVENT_TYPES.filter((t) => form[`event_${t}`] === '1')
        const description = (form.description ?? '').trim().slice(0, 500) || null
        const added = await addEndpoint(deps, by, deps.config.webhooksAllowPrivate, {
          programId: program.id,
          url: (form.url ?? '').trim(),
          events: events.length ? events : undefined,
          description,
        })
        // Refused: the page again with what was typed, and why (docs/decisions.md, The first hour).
        if ('refused' in added) {
          const problem = owner.notices[added.refused.includes('private') ? 'webhook_private' : 'webhook_url']!
          return show('Webhooks', (counted) => view(counted, signed, null, { form, problem }), 400)
        }
        return shownPage(program, signed, { webhookId: added.endpoint.id, secret: added.secret })
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/webhooks/:webhook_id/test',
      onEndpoint(async ({ program, endpoint }) => {
        const delivery = await sendTest(deps, endpoint, deps.webhookPool.attemptNow)
        return back(
          program,
          '/webhooks',
          delivery.status === 'delivered' ? 'webhook_test_ok' : 'webhook_test_failed',
          delivery.status === 'delivered' ? 'done' : 'error',
        )
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/webhooks/:webhook_id/retry',
      onEndpoint(async ({ program, endpoint }) => {
        await retryDeliveries(deps, deps.webhookPool.wake, endpoint.id)
        return back(program, '/webhooks', 'webhook_retried')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/webhooks/:webhook_id/active',
      onEndpoint(async ({ program, by, endpoint, form }) => {
        const active = form.active === 'true'
        await writer.run(() => {
          webhooks.update(endpoint.id, { active })
          stores.audit.write(by, now(), {
            program: program.id,
            action: 'webhook.update',
            object: ['webhook', endpoint.id],
            details: { active },
          })
        })
        return back(program, '/webhooks', active ? 'webhook_on' : 'webhook_off')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/webhooks/:webhook_id/secret',
      onEndpoint(async ({ program, signed, by, endpoint }) =>
        shownPage(program, signed, { webhookId: endpoint.id, secret: await rotateSecret(deps, by, endpoint) }),
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/webhooks/:webhook_id/delete',
      onEndpoint(async ({ program, by, endpoint }) => {
        await writer.run(() => {
          webhooks.remove(endpoint.id, now())
          stores.audit.write(by, now(), {
            program: program.id,
            action: 'webhook.delete',
            object: ['webhook', endpoint.id],
            details: { url: endpoint.url },
          })
        })
        return back(program, '/webhooks', 'webhook_deleted')
      }),
      { detail: { hide: true } },
    )
}
