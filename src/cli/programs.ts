import type { Ctx } from './context.ts'
import { usageError } from './errors.ts'
import { call } from './http.ts'
import { printTable, show } from './output.ts'

/** `svc programs`: lists the logged-in account's programs, one row each. */
export async function programs(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 0) throw usageError(`svc programs takes no arguments (got ${ctx.args[0]})`)
  if (!ctx.token) throw usageError('Not logged in. Run `svc login` first.')
  const reply = await call(ctx, 'GET', '/api/v1/cli/programs', { token: ctx.token })
  const list: any[] = Array.isArray(reply.body?.data) ? reply.body.data : []
  show(ctx, reply.body, () => {
    if (list.length === 0) return ctx.out('No programs yet. Create one with `svc init`.')
    const rows = list.map((p) => [
      String(p.program_id ?? p.id ?? ''),
      String(p.name ?? ''),
      String(p.domain ?? ''),
      p.commission_type ? `${p.commission_type} ${p.commission_rate ?? ''}`.trim() : '',
      String(p.partner_signup ?? ''),
    ])
    printTable(ctx, [['ID', 'NAME', 'DOMAIN', 'COMMISSION', 'JOIN'], ...rows])
  })
}
