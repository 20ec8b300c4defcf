import type { Ctx } from './context.ts'
import { usageError } from './errors.ts'
import { call } from './http.ts'
import { printFields, show } from './output.ts'

/** The program API key for status and test, or a usage error naming both ways to give it. */
export function requireApiKey(ctx: Ctx): string {
  if (!ctx.apiKey) throw usageError('No program API key. Pass --api-key, set SVC_API_KEY, or keep one with `svc init --save`.')
  return ctx.apiKey
}

/** `svc status`: prints the program's status as reported by GET /api/v1/cli/status. */
export async function status(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 0) throw usageError(`svc status takes no arguments (got ${ctx.args[0]})`)
  const reply = await call(ctx, 'GET', '/api/v1/cli/status', { token: requireApiKey(ctx) })
  show(ctx, reply.body, () => printFields(ctx, reply.body?.data ?? {}))
}
