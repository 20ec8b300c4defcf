import type { Ctx } from './context.ts'
import { subcommandOf } from './args.ts'
import { usageError } from './errors.ts'
import { call } from './http.ts'
import { printFields, printTable, show } from './output.ts'
import { requireApiKey } from './status.ts'

const USAGE = 'svc webhooks list | add --url URL [--events a,b] [--description TEXT] | test WEBHOOK_ID | deliveries WEBHOOK_ID'

/**
 * `svc webhooks`: the program's webhook endpoints with its API key (as `svc status`): list them,
 * add one (its signing secret is printed once), send a test event, list an endpoint's deliveries.
 */
export async function webhooks(ctx: Ctx): Promise<void> {
  const token = requireApiKey(ctx)
  const { sub, idOf } = subcommandOf(ctx.args, 'webhooks', USAGE, 'a webhook id')
  switch (sub) {
    case 'list': {
      const reply = await call(ctx, 'GET', '/api/v1/cli/webhooks', { token })
      const rows: any[] = reply.body?.data ?? []
      return show(ctx, reply.body, () =>
        rows.length === 0
          ? ctx.out('No webhook endpoint yet. Add one with `svc webhooks add --url URL`.')
          : printTable(ctx, [
              ['ID', 'URL', 'ACTIVE', 'EVENTS'],
              ...rows.map((w) => [String(w.webhook_id), String(w.url), w.active ? 'yes' : 'no', (w.events ?? []).join(',')]),
            ]),
      )
    }
    case 'add': {
      const url = ctx.flags.url as string | undefined
      if (!url) throw usageError(`svc webhooks add needs --url. Usage: ${USAGE}`)
      const events = (ctx.flags.events as string | undefined)
        ?.split(',')
        .map((e) => e.trim())
        .filter(Boolean)
      const description = ctx.flags.description as string | undefined
      const reply = await call(ctx, 'POST', '/api/v1/cli/webhooks', {
        token,
        json: { url, ...(events ? { events } : {}), ...(description ? { description } : {}) },
      })
      return show(ctx, reply.body, () => {
        printFields(ctx, reply.body?.data ?? {})
        ctx.err('The signing secret is shown only this once: store it where your receiver reads it.')
      })
    }
    case 'test': {
      const reply = await call(ctx, 'POST', `/api/v1/cli/webhooks/${idOf()}/test`, { token })
      return show(ctx, reply.body, () => printFields(ctx, reply.body?.data ?? {}))
    }
    case 'deliveries': {
      const reply = await call(ctx, 'GET', `/api/v1/cli/webhooks/${idOf()}/deliveries`, { token })
      const rows: any[] = reply.body?.data ?? []
      return show(ctx, reply.body, () =>
        printTable(ctx, [
          ['DELIVERY', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST'],
          ...rows.map((d) => [
            String(d.delivery_id),
            String(d.event_id),
            String(d.type),
            String(d.status),
            String(d.attempts),
            `${d.last_status_code ?? ''} ${d.last_error ?? ''}`.trim(),
          ]),
        ]),
      )
    }
    default:
      throw usageError(`Usage: ${USAGE}`)
  }
}
