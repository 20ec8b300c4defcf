import type { Ctx } from './context.ts'
import { usageError } from './errors.ts'
import { call } from './http.ts'
import { show } from './output.ts'

/** `svc dashboard`: prints a one-time sign-in link to the account's dashboard (valid 10 minutes). */
export async function dashboard(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 0) throw usageError(`svc dashboard takes no arguments (got ${ctx.args[0]})`)
  if (!ctx.token) throw usageError('Not logged in. Run `svc login` first.')
  const reply = await call(ctx, 'POST', '/api/v1/cli/dashboard-link', { token: ctx.token })
  show(ctx, reply.body, () => {
    const { url, expires_at } = reply.body.data
    ctx.out(`Open this link to sign in to the dashboard (it works once, until ${expires_at}):`)
    ctx.out(url)
  })
}
