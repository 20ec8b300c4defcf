import type { Ctx } from './context.ts'
import { subcommandOf } from './args.ts'
import { usageError } from './errors.ts'
import { call } from './http.ts'
import { printFields, printTable, show } from './output.ts'
import { requireApiKey } from './status.ts'

const USAGE = 'svc review list | approve COMMISSION_ID | reject COMMISSION_ID [--reason TEXT]'

/** Minor units as major ones, with the currency: the CLI prints amounts as a founder reads them. */
const money = (cents: number, currency: string) => `${currency === 'VND' ? String(cents) : (cents / 100).toFixed(2)} ${currency}`

/**
 * `svc review`: the program's commissions held for review (its fraud signals in words), with its
 * API key (as `svc status`); approve puts one back on the holding-period path, reject reverses it.
 */
export async function review(ctx: Ctx): Promise<void> {
  const token = requireApiKey(ctx)
  const { sub, id, idOf } = subcommandOf(ctx.args, 'review', USAGE, 'a commission id')
  switch (sub) {
    case 'list': {
      if (id !== undefined) throw usageError(`svc review list takes no argument. Usage: ${USAGE}`)
      const reply = await call(ctx, 'GET', '/api/v1/cli/review', { token })
      const rows: any[] = reply.body?.data ?? []
      return show(ctx, reply.body, () => {
        if (rows.length === 0) return ctx.out('No commission is held for review.')
        printTable(ctx, [
          ['COMMISSION', 'PARTNER', 'AMOUNT', 'SALE', 'FLAGS'],
          ...rows.map((c) => [
            String(c.commission_id),
            String(c.partner_name ?? c.partner_email ?? `#${c.partner_id}`),
            money(c.amount_cents, c.currency),
            String(c.transaction_id),
            (c.flags ?? []).join(','),
          ]),
        ])
        ctx.out('')
        for (const c of rows) ctx.out(`${c.commission_id}: ${(c.reasons ?? []).join(' ')}`)
        ctx.out('\nApprove with `svc review approve ID`, reject with `svc review reject ID --reason TEXT`.')
      })
    }
    case 'approve':
    case 'reject': {
      const reason = ctx.flags.reason as string | undefined
      if (sub === 'approve' && reason !== undefined) throw usageError(`--reason goes with reject. Usage: ${USAGE}`)
      const reply = await call(ctx, 'POST', `/api/v1/cli/commissions/${idOf()}/${sub}`, {
        token,
        json: reason === undefined ? {} : { reason },
      })
      return show(ctx, reply.body, () => printFields(ctx, reply.body?.data ?? {}))
    }
    default:
      throw usageError(`Usage: ${USAGE}`)
  }
}
