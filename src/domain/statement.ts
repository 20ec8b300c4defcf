// Verifiable statements (docs/ledger.md): the canonical encoding of a ledger entry and of a
// statement, and the verifier a partner runs (the `svc verify` command and this library's
// export). WebCrypto only (SHA-256, Ed25519), so that it runs in browsers, Node, Bun and Deno.

/** The hash before a partner's first entry. */
export const GENESIS = '0'.repeat(64)

/** One ledger entry of a statement: its fields as booked, and its hash. */
export interface StatementEntry {
  seq: number
  kind: 'commission' | 'reversal' | 'bonus' | 'payout' | 'payout_canceled'
  entry_id: number
  /** Minor units: commissions and bonuses positive, reversals and payouts negative, a payout's cancellation positive. */
  amount_cents: number
  currency: string
  created_at: string
  /** Test data (never paid): covered by the hash, so a live entry cannot be turned into a test one. */
  test_mode: boolean
  hash: string
}

export interface Statement {
  version: 1
  program_id: number
  partner_id: number
  month: string
  made_at: string
  count: number
  head: string
  entries: StatementEntry[]
  public_key: { kty: 'OKP'; crv: 'Ed25519'; x: string }
  signature: string
}

/** The text an entry's hash is the SHA-256 of (hex): its fields and the previous entry's hash. */
export function entryText(
  statement: Pick<Statement, 'program_id' | 'partner_id'>,
  entry: Omit<StatementEntry, 'hash'>,
  previous: string,
): string {
  return [
    'svc-ledger-v1',
    statement.program_id,
    statement.partner_id,
    entry.seq,
    entry.kind,
    entry.entry_id,
    entry.amount_cents,
    entry.currency,
    entry.created_at,
    entry.test_mode,
    previous,
  ].join('|')
}

/** The text a statement's Ed25519 signature is made over: the chain's head covers every entry. */
export function statementText(statement: Pick<Statement, 'program_id' | 'partner_id' | 'month' | 'made_at' | 'count' | 'head'>): string {
  return [
    'svc-statement-v1',
    statement.program_id,
    statement.partner_id,
    statement.month,
    statement.made_at,
    statement.count,
    statement.head,
  ].join('|')
}

/**
 * How far before an earlier statement's made_at a new entry may be dated without being called
 * inserted: a sale stamped just before a statement was made can commit just after it.
 */
export const INSERTED_SLACK_MS = 60_000

export type Verdict = { ok: true; entries: number; head: string } | { ok: false; problem: string }

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('')
const sha256 = async (text: string) => hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
const base64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

const label = (e: StatementEntry) => `entry ${e.seq} (${e.kind} ${e.entry_id})`

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const KINDS = ['commission', 'reversal', 'bonus', 'payout', 'payout_canceled']
const isInt = (v: unknown) => Number.isSafeInteger(v)

/** What is wrong with a statement's shape (a field missing or of another type), or null. */
function shapeProblem(s: Statement): string | null {
  if (!isInt(s.program_id) || !isInt(s.partner_id) || !isInt(s.count) || typeof s.month !== 'string')
    return 'the statement is malformed: program_id, partner_id, count or month is missing'
  if (typeof s.made_at !== 'string' || !ISO.test(s.made_at)) return 'the statement is malformed: made_at is not an ISO 8601 UTC time'
  if (!s.public_key || typeof s.public_key.x !== 'string') return 'the statement is malformed: public_key is missing'
  for (const [i, e] of s.entries.entries()) {
    const ok =
      e !== null &&
      typeof e === 'object' &&
      isInt(e.seq) &&
      KINDS.includes(e.kind) &&
      isInt(e.entry_id) &&
      isInt(e.amount_cents) &&
      typeof e.currency === 'string' &&
      typeof e.created_at === 'string' &&
      ISO.test(e.created_at) &&
      typeof e.test_mode === 'boolean' &&
      typeof e.hash === 'string'
    if (!ok) return `the statement is malformed: entry at position ${i + 1} lacks a field or has one of another type`
  }
  return null
}

/** A statement file's content: the bare statement, or the operator API's envelope around it. */
export function statementOf(value: unknown): Statement | null {
  const inner = value && typeof value === 'object' && 'data' in value ? (value as { data: unknown }).data : value
  if (!inner || typeof inner !== 'object') return null
  const s = inner as Statement
  return Array.isArray(s.entries) && typeof s.signature === 'string' && typeof s.head === 'string' ? s : null
}

/** A signing key as `/.well-known/svc-ledger-key` publishes it (an Ed25519 JWK), or null when `value` is none. */
export function ledgerKeyOf(value: unknown): Statement['public_key'] | null {
  const key = value as Statement['public_key'] | null
  return key && typeof key === 'object' && key.kty === 'OKP' && key.crv === 'Ed25519' && typeof key.x === 'string' ? key : null
}

/**
 * Checks a statement: each entry's hash against its fields and the previous hash, the head and
 * count, and the signature with the key the statement carries. With `previous` (an earlier
 * statement of the same partner), also that it was signed with the same key and that this one
 * extends it unchanged. With `key` (the server's published signing key, fetched or saved by the
 * partner), also that the statement was signed with it: a key carried inside a file proves only
 * that someone signed it (docs/decisions.md, Safety, third round). Answers the first problem
 * found, in words naming the entry.
 */
export async function verifyStatement(statement: Statement, previous?: Statement, key?: Statement['public_key']): Promise<Verdict> {
  const malformed = shapeProblem(statement) ?? (previous ? shapeProblem(previous) : null)
  if (malformed) return { ok: false, problem: malformed }
  if (key && statement.public_key.x !== key.x) return { ok: false, problem: 'signed by another key' }
  let last = GENESIS
  for (const [i, entry] of statement.entries.entries()) {
    if (entry.seq !== i + 1) return { ok: false, problem: `${label(entry)} is out of place: an entry before it was removed or inserted` }
    const { hash, ...fields } = entry
    if ((await sha256(entryText(statement, fields, last))) !== hash)
      return { ok: false, problem: `${label(entry)} does not match its hash: it was changed, or an entry before it was` }
    last = hash
  }
  if (last !== statement.head || statement.count !== statement.entries.length)
    return { ok: false, problem: 'the head or count does not match the entries: the list was cut or extended' }
  try {
    const key = await crypto.subtle.importKey('jwk', { ...statement.public_key, ext: true }, { name: 'Ed25519' }, false, ['verify'])
    const signed = await crypto.subtle.verify(
      { name: 'Ed25519' },
      key,
      base64(statement.signature),
      new TextEncoder().encode(statementText(statement)),
    )
    if (!signed) return { ok: false, problem: 'the signature does not verify with the key in the statement' }
  } catch {
    return { ok: false, problem: 'the signature or the key is malformed' }
  }
  if (previous) {
    const earlier = await verifyStatement(previous, undefined, key)
    if (!earlier.ok) return { ok: false, problem: `the earlier statement does not verify: ${earlier.problem}` }
    if (previous.program_id !== statement.program_id || previous.partner_id !== statement.partner_id)
      return { ok: false, problem: 'the two statements are of different partners' }
    if (previous.public_key.x !== statement.public_key.x) return { ok: false, problem: 'the statements are signed with different keys' }
    for (const old of previous.entries) {
      const now = statement.entries[old.seq - 1]
      if (!now) return { ok: false, problem: `${label(old)} of the earlier statement is missing from the later one` }
      if (now.hash !== old.hash || now.kind !== old.kind || now.entry_id !== old.entry_id)
        return { ok: false, problem: `${label(old)} differs from the earlier statement: it was changed or removed` }
    }
    // An entry the earlier statement should have listed, by its date, but did not: added later with a past date.
    const made = Date.parse(previous.made_at)
    for (const entry of statement.entries.slice(previous.entries.length)) {
      if (Date.parse(entry.created_at) < made - INSERTED_SLACK_MS)
        return {
          ok: false,
          problem: `${label(entry)} is dated before the earlier statement was made but is not in it: it was inserted in the past`,
        }
    }
  }
  return { ok: true, entries: statement.entries.length, head: statement.head }
}
