import type { Ctx } from './context.ts'
import { usageError } from './errors.ts'
import { call } from './http.ts'
import { printFields, show } from './output.ts'
import { requireApiKey } from './status.ts'

const SINGLE = ['click', 'lead', 'sale']

/**
 * `svc test [click|lead|sale|chain]`: asks the server for a synthetic test-mode
 * event. Default is the full chain, the one run that exercises click → lead →
 * sale → commission end to end.
 */
export async function testEvent(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 1) throw usageError('svc test takes one event type: click, lead, sale or chain')
  const kind = ctx.args[0] ?? 'chain'
  if (kind !== 'chain' && !SINGLE.includes(kind)) {
    throw usageError(`Unknown test event: ${kind}. Valid: click, lead, sale, chain`)
  }
  // The route's body differs by mode (docs/api.md, Command-line routes).
  const body = kind === 'chain' ? { type: 'chain' } : { event_type: kind }
  const reply = await call(ctx, 'POST', '/api/v1/cli/test-event', { token: requireApiKey(ctx), json: body })
  show(ctx, reply.body, () => {
    ctx.out(kind === 'chain' ? 'Synthetic chain ran:' : `Test ${kind} sent:`)
    printFields(ctx, reply.body?.data ?? {}, '  ')
  })
}
