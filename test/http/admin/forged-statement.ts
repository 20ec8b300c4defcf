import { createHash, generateKeyPairSync, sign } from 'node:crypto'
import { entryText, GENESIS, type Statement, statementText } from '../../../src/domain/statement.ts'

/**
 * A made-up 1,000,000 USD statement of the same partner as `real`, its chain and signature whole,
 * signed with a fresh key: what an operator who wants to pay less could hand a partner
 * (docs/decisions.md, Safety, third round). It verifies by itself; only the server's key refuses it.
 */
export function forgedFrom(real: Statement): Statement {
  const fresh = generateKeyPairSync('ed25519')
  const entry = {
    seq: 1,
    kind: 'commission' as const,
    entry_id: 1,
    amount_cents: 100_000_000,
    currency: 'USD',
    created_at: real.made_at,
    test_mode: false,
  }
  const hash = createHash('sha256')
    .update(entryText(real, entry, GENESIS))
    .digest('hex')
  const madeUp = { ...real, count: 1, head: hash, entries: [{ ...entry, hash }] }
  return {
    ...madeUp,
    public_key: { kty: 'OKP', crv: 'Ed25519', x: (fresh.publicKey.export({ format: 'jwk' }) as { x: string }).x },
    signature: sign(null, Buffer.from(statementText(madeUp)), fresh.privateKey).toString('base64'),
  }
}
