import { readFileSync } from 'node:fs'
import { ledgerKeyOf, type Statement, statementOf, verifyStatement } from '../domain/statement.ts'
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
 * The signing key of --key: a JWK file, or the URL of a server's `/.well-known/svc-ledger-key`
 * (exit 2 when it cannot be read or is no Ed25519 key).
 */
async function readKey(where: string): Promise<Statement['public_key']> {
  let value: unknown
  if (/^https?:\/\//i.test(where)) {
    try {
      const answer = await fetch(where, { signal: AbortSignal.timeout(10_000) })
      if (!answer.ok) throw usageError(`${where} answered ${answer.status}`)
      value = await answer.json()
    } catch (error) {
      if (error instanceof CliError) throw error
      throw usageError(`cannot read the key at ${where}`)
    }
  } else {
    try {
      value = JSON.parse(readFileSync(where, 'utf8'))
    } catch {
      throw usageError(`cannot read the key file ${where} as JSON`)
    }
  }
  const key = ledgerKeyOf(value)
  if (!key) throw usageError(`${where} is not an Ed25519 key (a JWK with kty OKP, crv Ed25519 and x)`)
  return key
}

/**
 * `svc verify STATEMENT [--previous EARLIER] [--key JWK_FILE_OR_URL]`: checks a statement's chain
 * and signature, with --previous that it extends the earlier one unchanged, and with --key that it
 * was signed by that key (docs/ledger.md). Without --key it warns on stderr that the key was not
 * checked. Exit 0 when it verifies, 1 naming the first problem.
 */
export async function verify(ctx: Ctx): Promise<void> {
  const [path, extra] = ctx.args
  if (!path) throw usageError('svc verify needs a statement file: svc verify STATEMENT [--previous EARLIER] [--key JWK_FILE_OR_URL]')
  if (extra !== undefined) throw usageError(`svc verify takes one statement file (got ${extra} too)`)
  const previousPath = ctx.flags.previous
  const statement = readStatement(path)
  const previous = typeof previousPath === 'string' ? readStatement(previousPath) : undefined
  const key = typeof ctx.flags.key === 'string' ? await readKey(ctx.flags.key) : undefined
  const verdict = await verifyStatement(statement, previous, key)
  if (!verdict.ok) throw new CliError(`${path} does not verify: ${verdict.problem}`, 1, { data: null, error: { message: verdict.problem } })
  // A statement carries its own key: anyone can sign a made-up one. Only --key says whose it is.
  if (!key) ctx.err('warning: signing key not checked (pass --key <base_url>/.well-known/svc-ledger-key)')
  show(ctx, { data: { verified: true, entries: verdict.entries, head: verdict.head, key_checked: key !== undefined }, error: null }, () =>
    ctx.out(
      `Verified: ${verdict.entries} ${verdict.entries === 1 ? 'entry' : 'entries'} of partner ${statement.partner_id}, signed with key ${statement.public_key.x}` +
        (previous ? `; extends ${previousPath} (${previous.entries.length} entries) unchanged.` : '.'),
    ),
  )
}
