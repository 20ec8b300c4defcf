import { createHmac } from 'node:crypto'
import type { SessionOf } from '../../db/web-session-store.ts'
import { sameDigest } from '../../db/credentials.ts'
import type { Deps } from '../deps.ts'

export const SESSION_COOKIE = 'svc_session'
/** How long a browser stays signed in (the cookie's Max-Age); sign-out ends it sooner. */
export const SESSION_LIFETIME_MS = 7 * 86_400_000

/** The svc_session cookie's value, or null. */
export function sessionToken(request: Request): string | null {
  const header = request.headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim()
      return /^[A-Za-z0-9_-]{10,100}$/.test(value) ? value : null
    }
  }
  return null
}

export interface Signed {
  session: SessionOf
  /** The form token of this session: an HMAC of the cookie value, so nothing more is stored. */
  csrf: string
}

/** The request's signed-in session and its form token, or null. */
export function signedIn(deps: Deps, request: Request): Signed | null {
  const token = sessionToken(request)
  if (!token) return null
  const session = deps.database.stores.webSessions.findWebSession(token, deps.clock.now())
  return session ? { session, csrf: formToken(deps, token) } : null
}

function formToken(deps: Deps, token: string): string {
  return createHmac('sha256', deps.secret).update(`svc-form:${token}`).digest('hex')
}

/**
 * Whether a post comes from this server's own pages as far as its Origin tells: a browser sends
 * Origin with every form post, and it must be PUBLIC_BASE_URL's origin, never one derived from the
 * request's own Host header, which whoever sends the request writes (docs/decisions.md, Hostile
 * input, turn 3). A request without Origin is no browser's form (curl, a script): the form token
 * decides for those.
 */
export function fromOwnOrigin(deps: Deps, request: Request): boolean {
  const origin = request.headers.get('origin')
  return origin === null || origin === new URL(deps.config.publicBaseUrl).origin
}

/**
 * Whether a form post may act (cross-site posting refused): its Origin is this server's
 * (fromOwnOrigin), and the form carries the session's token. SameSite=Lax already keeps the
 * cookie off cross-site posts.
 */
export function sameSitePost(deps: Deps, request: Request, signed: Signed, form: Record<string, string>): boolean {
  if (!fromOwnOrigin(deps, request)) return false
  const sent = form._csrf ?? ''
  return /^[0-9a-f]{64}$/.test(sent) && sameDigest(sent, signed.csrf)
}

/** The Set-Cookie value that starts a session (Secure when PUBLIC_BASE_URL is https). */
export function sessionCookie(deps: Deps, token: string): string {
  const secure = deps.config.publicBaseUrl.startsWith('https:') ? '; Secure' : ''
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_LIFETIME_MS / 1000}${secure}`
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedCookie(deps: Deps): string {
  const secure = deps.config.publicBaseUrl.startsWith('https:') ? '; Secure' : ''
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`
}
