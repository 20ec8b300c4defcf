import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto'
import { GENESIS, type Statement, statementText, verifyStatement } from '../domain/statement.ts'
import { statements as messages } from '../domain/messages.ts'
import { iso } from '../domain/time.ts'
import type { TrackingDeps } from './deps.ts'

export type PublicKeyJwk = Statement['public_key']

export type StatementAnswer = { kind: 'ok'; statement: Statement } | { kind: 'invalid'; message: string } | { kind: 'not_found' }

// The key is read once per database: the settings row is written on first use and never changes.
const keys = new WeakMap<object, { privateKey: KeyObject; jwk: PublicKeyJwk }>()

/** The server's statement key (generated on first use, kept in the database: docs/ledger.md). */
export function ledgerKey(deps: TrackingDeps): { privateKey: KeyObject; jwk: PublicKeyJwk } {
  const known = keys.get(deps.database)
  if (known) return known
  const privateKey = createPrivateKey(deps.database.stores.settings.ledgerKeyPem())
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }
  const key = { privateKey, jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x } }
  keys.set(deps.database, key)
  return key
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

/**
 * A partner's signed statement of `month` (UTC): every entry of their chain booked before the
 * month's end, or before now for the current month, as stored (a broken chain is served as it
 * is, never repaired, with a warning logged). 400 for a month that is not YYYY-MM or is in
 * the future, 404 for an unknown partner.
 */
export async function makeStatement(
  deps: TrackingDeps & { log: (line: Record<string, unknown>) => void },
  programId: number,
  partnerId: number,
  month: string,
): Promise<StatementAnswer> {
  const parts = MONTH.exec(month)
  if (!parts || Number(parts[1]) < 1970) return { kind: 'invalid', message: messages.month }
  const now = deps.clock.now()
  const start = Date.UTC(Number(parts[1]), Number(parts[2]) - 1, 1)
  if (start > now) return { kind: 'invalid', message: messages.future }
  const { stores } = deps.database
  if (!stores.partners.find(programId, partnerId)) return { kind: 'not_found' }
  // A past month ends at its last millisecond; the current month at the moment it is made. The
  // entries booked at or before made_at are listed.
  const madeAt = Math.min(Date.UTC(Number(parts[1]), Number(parts[2]), 1) - 1, now)
  const entries = stores.chain.entries(partnerId, madeAt + 1)
  const unsigned = {
    version: 1 as const,
    program_id: programId,
    partner_id: partnerId,
    month,
    made_at: iso(madeAt),
    count: entries.length,
    head: entries.at(-1)?.hash ?? GENESIS,
    entries,
  }
  const key = ledgerKey(deps)
  const signature = sign(null, Buffer.from(statementText(unsigned)), key.privateKey).toString('base64')
  const statement = { ...unsigned, public_key: key.jwk, signature }
  // Checked with the partner's own verifier: what it would name is what the operator is told.
  const verdict = await verifyStatement(statement)
  if (!verdict.ok)
    deps.log({
      level: 'warn',
      msg: 'ledger chain broken: a stored entry no longer matches its hash',
      program_id: programId,
      partner_id: partnerId,
      problem: verdict.problem,
    })
  return { kind: 'ok', statement }
}
