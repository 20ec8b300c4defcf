// Reading `svc_click_id` on the server (docs/api.md, Lead: "a framework server may read the
// cookie"). Kept apart from server.ts so it has no dependency on the HTTP code.

/** The cookie name the tracker writes. */
export const CLICK_COOKIE = 'svc_click_id'

/** Anything a server framework hands us: a Fetch Request, a Node IncomingMessage, or the header. */
export type CookieSource = string | null | undefined | { headers: Headers } | { headers: Record<string, string | string[] | undefined> }

/** The click id from the request's Cookie header, or null when absent or empty. */
export function readClickId(source: CookieSource): string | null {
  const header = cookieHeader(source)
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== CLICK_COOKIE) continue
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
    if (!raw) return null
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return null
}

function cookieHeader(source: CookieSource): string {
  if (!source) return ''
  if (typeof source === 'string') return source
  const { headers } = source
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get('cookie') ?? ''
  const value = (headers as Record<string, string | string[] | undefined>).cookie
  // Node joins repeated Cookie headers itself, but HTTP/2 adapters may hand an array.
  return Array.isArray(value) ? value.join('; ') : (value ?? '')
}
