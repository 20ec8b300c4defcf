import { createHmac, timingSafeEqual } from 'node:crypto'

/** The claims of an id_token: the account it names, who issued it, and its lifetime (epoch seconds). */
export interface IdTokenClaims {
  sub: number
  iss: string
  aud: 'svc-cli'
  iat: number
  exp: number
  /** Random: two tokens issued in the same second for one account still differ (each is good for one sign-in). */
  jti?: string
}

const b64 = (text: string) => Buffer.from(text).toString('base64url')
const sign = (input: string, secret: string) => createHmac('sha256', secret).update(input).digest('base64url')

/** An HS256 JWT for `claims`, signed with the server secret (the operator API's id-token route). */
export function signIdToken(claims: IdTokenClaims, secret: string): string {
  const input = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(JSON.stringify(claims))}`
  return `${input}.${sign(input, secret)}`
}

export type IdTokenCheck =
  | { ok: true; claims: IdTokenClaims }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'foreign' }

/**
 * Verifies an id_token's signature (constant time), issuer, audience and lifetime at `nowMs`.
 * Returns the claims, or why the token is refused; never throws.
 */
export function verifyIdToken(token: string, secret: string, issuer: string, nowMs: number): IdTokenCheck {
  const parts = token.split('.')
  if (parts.length !== 3) return { ok: false, reason: 'malformed' }
  const expected = Buffer.from(sign(`${parts[0]}.${parts[1]}`, secret))
  const given = Buffer.from(parts[2])
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'bad_signature' }
  let claims: IdTokenClaims
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  if (claims.iss !== issuer || claims.aud !== 'svc-cli' || !Number.isInteger(claims.sub)) return { ok: false, reason: 'foreign' }
  if (typeof claims.exp !== 'number' || nowMs >= claims.exp * 1000) return { ok: false, reason: 'expired' }
  return { ok: true, claims }
}
