import type { RouteEntry } from './route-lookup.ts'

// docs/decisions.md, The first hour: the dashboard's forms only accept posts from PUBLIC_BASE_URL's
// origin, so a page opened on another name (127.0.0.1 for localhost, a VM's IP) would show a form
// whose post is refused. Such a page is sent to PUBLIC_BASE_URL first when both names are loopback;
// on any other name it says where to go, and how to set PUBLIC_BASE_URL.

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

/** host and port of a Host header or URL host, lower case, the scheme's default port written out. */
function hostPort(host: string, defaultPort: string): { name: string; port: string } {
  const lower = host.toLowerCase()
  const close = lower.lastIndexOf(']')
  const colon = lower.lastIndexOf(':')
  if (colon > close && colon > 0) return { name: lower.slice(0, colon), port: lower.slice(colon + 1) || defaultPort }
  return { name: lower, port: defaultPort }
}

/**
 * The check of a page request's name, made once for the server: whether the request came through
 * another name than PUBLIC_BASE_URL: 'redirect' (both loopback), 'banner', or null. Behind a proxy
 * (TRUST_PROXY set) the Host header is the proxy's choice (nginx sends its upstream's address), so
 * it says nothing of what the browser opened.
 */
export function foreignOrigin(
  publicBaseUrl: string,
  behindProxy: boolean,
): (request: Request, entry: RouteEntry | null) => 'redirect' | 'banner' | null {
  const base = new URL(publicBaseUrl)
  const defaultPort = base.protocol === 'https:' ? '443' : '80'
  const ours = hostPort(base.host, defaultPort)
  // PORT=0 (an ephemeral port, tests) leaves the default PUBLIC_BASE_URL on port 0: no address to send anyone to.
  if (behindProxy || ours.port === '0') return () => null
  return (request, entry) => {
    if (request.method !== 'GET' || entry?.methods.GET?.reads !== 'form') return null
    const host = request.headers.get('host')
    if (!host) return null
    const theirs = hostPort(host, defaultPort)
    if (ours.name === theirs.name && ours.port === theirs.port) return null
    return LOOPBACK.has(ours.name) && LOOPBACK.has(theirs.name) ? 'redirect' : 'banner'
  }
}

/** The 303 to the same path and query on PUBLIC_BASE_URL. */
export function toPublicOrigin(publicBaseUrl: string, path: string, query: string): Response {
  return new Response(null, { status: 303, headers: { location: `${publicBaseUrl.replace(/\/$/, '')}${path}${query}` } })
}

/** An HTML page with a banner naming PUBLIC_BASE_URL at the top of its body; any other answer as it is. */
export async function withOriginBanner(response: Response, publicBaseUrl: string): Promise<Response> {
  if (!response.headers.get('content-type')?.startsWith('text/html')) return response
  const text = await response.text()
  const safe = publicBaseUrl.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  const banner = `<p class="banner" role="alert">This server's address is <a href="${safe}">${safe}</a> (PUBLIC_BASE_URL): open it there, or forms on this page will be refused. If this address is the right one, set PUBLIC_BASE_URL to it and restart svc.</p>`
  const at = text.indexOf('<body>')
  const body = at < 0 ? text : `${text.slice(0, at + 6)}${banner}${text.slice(at + 6)}`
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(body, { status: response.status, headers })
}
