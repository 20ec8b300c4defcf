import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { cachedRow } from './catalog'
import type { Database, Db } from './open'
import { apiKeys, programs, type ApiKey, type Program } from './schema'

/** A random URL-safe token of `bytes` random bytes after `prefix` (API keys: 24 bytes, 192 bits). */
export function newToken(prefix: string, bytes = 24): string {
  return prefix + randomBytes(bytes).toString('base64url')
}

/** The SHA-256 hex digest under which a secret is stored; the secret itself never is. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** Compares two equal-length hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

/** How an issued key is shown after issue: its prefix and a mask. */
export function maskKey(prefix: string): string {
  return `${prefix}${'•'.repeat(16)}`
}

export interface KeyMatch {
  program: Program
  key: ApiKey
}

/**
 * Looks a program up by an API key's hash among unrevoked keys: prepared once per database,
 * each match kept in the catalog (src/db/catalog.ts) until a key or program changes.
 */
export function keyLookup(database: Database): (token: string) => KeyMatch | null {
  const query = database.db
    .select({ program: programs, key: apiKeys })
    .from(apiKeys)
    .innerJoin(programs, eq(programs.id, apiKeys.programId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare()
  // SHA-256 once per key, not once per request: a program's server sends the same key all day.
  // Bounded, so that a scan of made-up keys cannot grow it; the match itself stays in the catalog.
  const hashes = new Map<string, string>()
  return (token) => {
    let hash = hashes.get(token)
    if (hash === undefined) {
      hash = hashSecret(token)
      if (hashes.size >= 10_000) hashes.clear()
      hashes.set(token, hash)
    }
    const row = cachedRow(database, `key:${hash}`, () => (query.get({ hash }) as KeyMatch | undefined) ?? null)
    return row && sameDigest(row.key.keyHash, hash) ? row : null
  }
}

/**
 * Issues a new key for a program, revoking any previous one in the same write (regeneration:
 * the old key answers 401 at once). Returns the plaintext key, shown once.
 */
export function issueApiKey(db: Db, programId: number, now: number): string {
  const key = newToken('svc_live_')
  db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.programId, programId), isNull(apiKeys.revokedAt))).run()
  db.insert(apiKeys).values({ programId, keyHash: hashSecret(key), keyPrefix: key.slice(0, 13), createdAt: now }).run()
  return key
}
