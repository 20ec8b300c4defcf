import { clearToken } from './config.ts'
import type { Ctx } from './context.ts'
import { usageError } from './errors.ts'
import { show } from './output.ts'

/**
 * `svc logout`: deletes the saved login token (the server keeps no CLI session to
 * end). Succeeds when already logged out, so scripts can call it unconditionally.
 */
export async function logout(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 0) throw usageError(`svc logout takes no arguments (got ${ctx.args[0]})`)
  const removed = clearToken(ctx.configPath)
  show(ctx, { data: { logged_out: removed }, error: null }, () => ctx.out(removed ? 'Logged out.' : 'Not logged in; nothing to do.'))
}
