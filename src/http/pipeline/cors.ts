import type { Deps } from '../deps.ts'
import { errorBody, HttpError, json } from './envelope.ts'
import { shared } from '../../domain/messages.ts'
import { originKnown } from './origin.ts'
import type { RouteEntry } from './route-lookup.ts'

const EXPOSED = 'X-Request-ID, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Deprecation, Sunset, Link'

/**
 * Adds CORS headers to the answer of a browser route (`browser` in the route table: the only
 * routes meant for direct browser requests, docs/api.md, Authentication, Other rules). Click and lead are simple requests (the tracker
 * sends text/plain), checked against their own program before anything is recorded; every
 * answer to them is readable by the page that sent it, so that a refused origin sees its 403
 * `Origin not allowed for this program` rather than a network error. Preflights, which carry
 * no program, are answered for the origins some program accepts only (docs/decisions.md).
 */
export function corsHeaders(deps: Deps, request: Request, route: RouteEntry | null, headers: Record<string, string>): void {
  if (!route?.browser) return
  headers.Vary = headers.Vary ? `${headers.Vary}, Origin` : 'Origin'
  const origin = request.headers.get('origin')
  if (!origin || (request.method === 'OPTIONS' && !originKnown(deps.database, origin))) return
  headers['Access-Control-Allow-Origin'] = origin
  headers['Access-Control-Expose-Headers'] = EXPOSED
}

/**
 * Answers a CORS preflight. It carries no body, hence no program: it is answered for the origins
 * that some program accepts, on the browser routes only; the actual request is then checked
 * against its own program (docs/decisions.md, Browser origins).
 */
export function preflight(deps: Deps, request: Request, route: RouteEntry | null): Response {
  const origin = request.headers.get('origin')
  if (!route?.browser || !origin || !originKnown(deps.database, origin)) {
    return json(errorBody(new HttpError(403, shared.originNotAllowed), route), 403)
  }
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      'Access-Control-Max-Age': '600',
    },
  })
}
