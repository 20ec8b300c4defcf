// The source key at rest (docs/imports.md): sealed with the server's secret (SVC_SECRET, or the one
// generated on first start) before it is written, so that the database file, its WAL and its
// backups never hold it in plain text; it is read back only by the job that reads the source.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'

/** The AES-256-GCM key of import keys, derived from the server's secret (HKDF-SHA256, its own label). */
const keyOf = (secret: string) => Buffer.from(hkdfSync('sha256', secret, '', 'svc-import-source-key', 32))

/** `v1.` then base64url of IV (12 bytes), tag (16) and the key encrypted. */
export function sealSourceKey(secret: string, plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv)
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`
}

/** The key a sealed value holds, or null when it cannot be opened (another secret, not sealed). */
export function openSourceKey(secret: string, stored: string): string | null {
  if (!stored.startsWith(`${VERSION}.`)) return null
  try {
    const raw = Buffer.from(stored.slice(VERSION.length + 1), 'base64url')
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
