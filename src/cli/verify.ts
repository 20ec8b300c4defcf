import { readFileSync } from 'node:fs'
import { type Statement, statementOf, verifyStatement } from '../client/statement.ts'
import type { Ctx } from './context.ts'
import { CliError, usageError } from './errors.ts'
import { show } from './output.ts'

/** A statement file: the portal's bare JSON or the operator API's envelope (exit 2 when unreadable). */
function readStatement(path: string): Statement {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    throw usageError(`cannot read ${path}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw usageError(`${path} is not JSON`)
  }
  const statement = statementOf(value)
  if (!statement) throw usageError(`${path} is not a statement (no entries, head or signature)`)
  return statement
}

/**
 * `svc verify STATEMENT [--previous EARLIER]`: checks a statement's chain and signature, and with
 * --previous that it extends the earlier one unchanged (docs/ledger.md). No server is asked:
 * exit 0 when it verifies, 1 naming the first problem.
 */
export async function verify(ctx: Ctx): Promise<void> {
  const [path, extra] = ctx.args
  if (!path) throw usageError('svc verify needs a statement file: svc verify STATEMENT [--previous EARLIER]')
  if (extra !== undefined) throw usageError(`svc verify takes one statement file (got ${extra} too)`)
  const previousPath = ctx.flags.previous
  const statement = readStatement(path)
  const previous = typeof previousPath === 'string' ? readStatement(previousPath) : undefined
  const verdict = await verifyStatement(statement, previous)
  if (!verdict.ok) throw new CliError(`${path} does not verify: ${verdict.problem}`, 1, { data: null, error: { message: verdict.problem } })
  show(ctx, { data: { verified: true, entries: verdict.entries, head: verdict.head }, error: null }, () =>
    ctx.out(
      `Verified: ${verdict.entries} entries of partner ${statement.partner_id}, signed with key ${statement.public_key.x}` +
        (previous ? `; extends ${previousPath} (${previous.entries.length} entries) unchanged.` : '.'),
    ),
  )
}
