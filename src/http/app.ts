import { Elysia } from 'elysia'
import { adminRoutes } from './admin/routes.ts'
import { cliRoutes } from './cli/routes.ts'
import { clientIp } from './pipeline/client-ip.ts'
import type { PeerAddress } from '../runtime/runtime.ts'
import { corsHeaders, preflight } from './pipeline/cors.ts'
import type { Deps } from './deps.ts'
import { errorBody, HttpError, json } from './pipeline/envelope.ts'
import { internalError } from './pipeline/errors.ts'
import { shared } from '../domain/messages.ts'
import { networkOf } from '../domain/network.ts'
import { drainBody, mustDrain, readBody } from './pipeline/body.ts'
import { docsRoutes } from './docs/routes.ts'
import { routeOf } from './pipeline/route-lookup.ts'
import { limits, type LimitGroup } from './pipeline/route-table.ts'
import { setState, stateOf, type RequestState } from './pipeline/request-state.ts'
import { findKeyOnce, noteRotation, readBearer } from './pipeline/auth.ts'
import { requestTarget } from './pipeline/request-target.ts'
import { foreignOrigin, toPublicOrigin, withOriginBanner } from './pipeline/public-origin.ts'
import { trackerRoutes } from './track/tracker-asset.ts'
import { trackClickRoute } from './track/click.ts'
import { trackLeadRoute } from './track/lead.ts'
import { trackSaleRoute } from './track/sale.ts'
import { trackRefundRoute } from './track/refund.ts'
import type { DirectHandler, DirectRoute } from './pipeline/direct.ts'
import { readinessRoutes } from './track/readiness.ts'
import { merchantWebhookRoutes } from './webhooks/merchants.ts'
import { discountRoutes } from './track/discount.ts'
import { stripeWebhookRoutes } from './webhooks/stripe.ts'
import { signInLinkRoutes } from './admin/sign-in-links.ts'
import { readForm } from './pages/form.ts'
import { webRoutes } from './pages/routes.ts'
import { setupRoutes } from './pages/setup.ts'
import { joinRoutes } from './pages/join.ts'

/** The tracking routes, which the pipeline calls directly (direct.ts). */
const trackingRoutes = (deps: Deps): DirectRoute[] => [
  trackClickRoute(deps),
  trackLeadRoute(deps),
  trackSaleRoute(deps),
  trackRefundRoute(deps),
]

/**
 * The Elysia app with every route and the one error handler; createApp wraps it in the pipeline.
 * `direct` are the routes the pipeline also calls without Elysia: registered here all the same.
 */
export function buildRoutes(deps: Deps, direct: DirectRoute[] = trackingRoutes(deps)) {
  const app = new Elysia({ name: 'svc' })
    // What the route table says the route reads: webhook routes read their own raw body (the
    // processor's signature covers the exact bytes), the dashboard's pages post HTML forms.
    .onParse(({ request }) => {
      const reads = stateOf(request).entry?.reads
      return reads === 'raw' ? undefined : reads === 'form' ? readForm(request) : readBody(request)
    })
    .onTransform(({ request, route }) => {
      stateOf(request).route = route
    })
    .onAfterHandle(({ request, response, set }) => {
      // The pipeline's headers go in before Elysia builds the Response: cheaper than setting them after.
      const state = stateOf(request)
      Object.assign(set.headers, pipelineHeaders(deps, state, request, 200))
      state.decorated = true
      const answered = withWarnings(response, state.warnings)
      if (answered !== response) return answered
    })
    .onError(({ request, error, code }) => renderError(deps, request, error, code))
    .get('/healthz', () => ({ data: { status: 'ok' }, error: null }), { detail: { hide: true } })
    .use(trackerRoutes(deps))
    .use(adminRoutes(deps))
    .use(readinessRoutes(deps))
    .use(discountRoutes(deps))
    .use(cliRoutes(deps))
    .use(stripeWebhookRoutes(deps))
    .use(merchantWebhookRoutes(deps))
    .use(signInLinkRoutes(deps))
    .use(webRoutes(deps))
    .use(setupRoutes(deps))
    .use(joinRoutes(deps))
  for (const route of direct) app.use(route.plugin)
  // Registered last so that the generated document sees every route.
  return app.use(docsRoutes(deps, () => app.routes))
}

function renderError(deps: Deps, request: Request, error: unknown, code: unknown): Response {
  const state = stateOf(request)
  let failure: HttpError
  // Elysia wraps what the body parser throws in a ParseError; the HttpError is its cause.
  const cause = (error as { cause?: unknown })?.cause
  if (error instanceof HttpError) failure = error
  else if (code === 'PARSE' && cause instanceof HttpError) failure = cause
  else if (code === 'NOT_FOUND') failure = new HttpError(404, shared.notFound)
  else if (code === 'PARSE') failure = new HttpError(400, shared.malformedJson)
  else {
    deps.log({ level: 'error', request_id: state.id, path: state.path, error: String((error as Error)?.stack ?? error) })
    failure = internalError(state.entry, state.id)
  }
  state.decorated = true
  return json(errorBody(failure, state.entry, state.warnings), failure.status, {
    ...failure.options.headers,
    ...pipelineHeaders(deps, state, request, failure.status),
  })
}

/** A route's answer with top-level `warnings` beside `data` when a key is due for rotation (docs/api.md, Authentication). */
function withWarnings(response: unknown, warnings: unknown[]): unknown {
  if (!warnings.length || !response || typeof response !== 'object' || response instanceof Response) return response
  return { ...(response as object), warnings }
}

/** What every answer carries: rate-limit and rotation headers, X-Request-ID (docs/errors.md's exception aside), CORS. */
function pipelineHeaders(deps: Deps, state: RequestState, request: Request, status: number): Record<string, string> {
  const headers = { ...state.headers }
  // docs/errors.md, Request IDs: a route may carry it on its 500 only (GET /api/v1/cli/status).
  if (status === 500 || state.entry?.methods[request.method]?.requestId !== 'only-on-500') headers['X-Request-ID'] = state.id
  corsHeaders(deps, request, state.entry, headers)
  return headers
}

/** The request on another URL; a GET or HEAD keeps no body (a Request cannot carry one), which the pipeline drains. */
function rebuilt(request: Request, url: string): Request {
  const { method } = request
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers: request.headers })
  return new Request(url, request)
}

/** The typed 429 of docs/api.md written out: refusing must stay cheap under a flood (no Error, no stack). */
function tooMany(deps: Deps, state: RequestState, request: Request, retryAfter: number): Response {
  state.headers['Retry-After'] = String(retryAfter)
  state.decorated = true
  // pipelineHeaders' object is the request's own: content-type joins it instead of a third copy.
  const headers = pipelineHeaders(deps, state, request, 429)
  headers['content-type'] = JSON_TYPE
  return new Response(tooManyBody(retryAfter, state.warnings), { status: 429, headers })
}

const JSON_TYPE = 'application/json; charset=utf-8'
/** The 429 bodies without warnings, by retry_after_seconds (1 to the window's length): the same few strings all through a flood. */
const tooManyBodies = new Map<number, string>()

function tooManyBody(retryAfter: number, warnings: unknown[]): string {
  const body: Record<string, unknown> = {
    error: { code: 'rate_limited', message: shared.rateLimited, status: 429, retry_after_seconds: retryAfter },
  }
  if (warnings.length) {
    body.warnings = warnings
    return JSON.stringify(body)
  }
  let text = tooManyBodies.get(retryAfter)
  if (text === undefined) {
    if (tooManyBodies.size >= 256) tooManyBodies.clear()
    tooManyBodies.set(retryAfter, (text = JSON.stringify(body)))
  }
  return text
}

/** The service: createApp(deps).fetch answers every request (rate limits, ids, CORS, logs around the routes). */
export function createApp(deps: Deps) {
  const direct = trackingRoutes(deps)
  const app = buildRoutes(deps, direct)
  const directByPath = new Map(direct.map((route) => [route.path, route.handle]))
  const { config, clock, limiter } = deps
  const scale = config.rateLimitScale
  const originOf = foreignOrigin(config.publicBaseUrl, config.trustProxy !== false)

  /**
   * `peer` is the runtime's lookup of the TCP peer address (absent under app.handle in tests). An
   * answer decided before any route runs (a 429, a preflight, a 404 of an unroutable method) is
   * returned as it is, not in a promise, so that the runtime writes it in the same turn (issue 14:
   * the 429 flood's cost).
   */
  function fetch(received: Request, peer?: PeerAddress): Response | Promise<Response> {
    const started = performance.now()
    const target = requestTarget(received.url)
    const { path } = target
    const { method } = received
    // No route answers these, and a Request cannot even be built with them (fetch forbids them).
    const unroutable = method === 'TRACE' || method === 'CONNECT' || method === 'TRACK'
    let request = received
    let ip: string | undefined
    // The route table's entry of the path: its limit, envelope, CORS and 500 (route-table.ts).
    const entry = routeOf(path)
    const state: RequestState = {
      id: crypto.randomUUID(),
      path,
      entry,
      headers: {},
      warnings: [],
      // Found only when a route needs it (click records it; key-limited routes rarely do).
      get ip() {
        return (ip ??= clientIp(received, config.trustProxy, peer))
      },
    }

    let response: Response | null = null
    let origin: 'redirect' | 'banner' | null = null
    try {
      // Elysia finds the path at the first '/' from index 11 of the URL: route it on our own path
      // whenever that would differ (a short or absent Host, trailing slashes), so that routing,
      // limits, request ids and error shapes all see one path (docs/decisions.md, Hostile input).
      if (target.rebuild && !unroutable) request = rebuilt(received, `http://svc.local${path}${target.query}`)
      setState(request, state)
      // docs/api.md: every response on a limited route carries the X-RateLimit headers; a preflight
      // reports them without spending a token (and is never refused).
      const group = entry?.limit
      const refused = group ? takeToken(state, group, request, method !== 'OPTIONS') : null
      if (refused) response = refused
      else if (target.tooLong) response = renderError(deps, request, new HttpError(400, shared.urlTooLong), null)
      else if (unroutable) response = renderError(deps, request, new HttpError(404, shared.notFound), null)
      // Only the browser routes answer preflights; elsewhere OPTIONS is a route that does not exist.
      else if (method === 'OPTIONS' && entry?.browser) response = preflight(deps, request, entry)
      else origin = originOf(received, entry)
      if (origin === 'redirect') response = toPublicOrigin(config.publicBaseUrl, path, target.query)
    } catch (error) {
      response = failedOutside(error, state, request)
    }
    const answered = { received, request, state, method, started, banner: origin === 'banner' }
    if (response) return finish(response, answered)
    return routed(answered)
  }

  interface Answered {
    received: Request
    request: Request
    state: RequestState
    method: string
    started: number
    /** A page opened on another name than PUBLIC_BASE_URL: it says so (pipeline/public-origin.ts). */
    banner: boolean
  }

  /** What fails outside the routes (a Request that cannot be rebuilt, the limiter) still ends in the route's 500 envelope with its request id, never the runtime's bare 500. */
  function failedOutside(error: unknown, state: RequestState, request: Request): Response {
    setState(request, state)
    return renderError(deps, request, error, null)
  }

  async function routed(answered: Answered): Promise<Response> {
    const { request, state, method } = answered
    const handle = method === 'POST' ? directByPath.get(state.path) : undefined
    let response: Response
    try {
      response = handle ? await answerDirect(handle, request, state) : await app.handle(request)
      if (answered.banner) response = await withOriginBanner(response, config.publicBaseUrl)
    } catch (error) {
      response = failedOutside(error, state, request)
    }
    return finish(response, answered)
  }

  /**
   * A direct route (direct.ts) answered as Elysia would with the hooks of buildRoutes: the body read
   * by readBody (onParse), the pipeline's headers and warnings on the object (onAfterHandle), which
   * becomes the Response as Elysia maps one, and a failure rendered by the one error handler.
   */
  async function answerDirect(handle: DirectHandler, request: Request, state: RequestState): Promise<Response> {
    state.route = state.path
    try {
      const result = await handle({ body: await readBody(request), request })
      const headers = pipelineHeaders(deps, state, request, 200)
      state.decorated = true
      return Response.json(withWarnings(result, state.warnings), { headers })
    } catch (error) {
      return renderError(deps, request, error, null)
    }
  }

  /**
   * An answer decided before the body was read (429, 404, a 401 of a route without a body) is
   * sent only once the client has finished sending, or it would read a reset instead: unless the
   * runtime drops such a body itself (drainBody), the body is drained first.
   */
  function finish(response: Response, answered: Answered): Response | Promise<Response> {
    const { received, request } = answered
    const discards = deps.discardsUnreadBodies
    if (mustDrain(request, discards) || (received !== request && mustDrain(received, discards))) {
      // One after the other: a rebuilt request may share its body with the one received.
      return drainBody(request, discards)
        .then(() => (received === request ? undefined : drainBody(received, discards)))
        .then(() => decorated(response, answered))
    }
    return decorated(response, answered)
  }

  function decorated(response: Response, { request, state, method, started }: Answered): Response {
    decorate(response, state, request)
    if (config.logRequests) {
      deps.log({
        level: 'info',
        method,
        route: state.route ?? state.path,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        request_id: state.id,
      })
    }
    return response
  }

  /**
   * The bucket of a request (docs/api.md, Limits; route-table.ts, limits): a program key, or on
   * the CLI routes a login token, once recognised; the client IP otherwise. An unknown token
   * counts against its IP, so that junk tokens neither make buckets nor escape the limit
   * (docs/decisions.md, Hostile input).
   */
  function bucketOf(state: RequestState, group: LimitGroup, request: Request): string {
    const { bucket } = limits[group]
    if (bucket !== 'ip') {
      const bearer = readBearer(request)
      if (bearer.kind === 'token') {
        try {
          const match = findKeyOnce(deps, request, bearer.token)
          if (match) return `${group}:k:${match.key.id}`
          if (bucket === 'key-or-login') {
            const login = deps.database.stores.cli.findLoginToken(bearer.token, clock.now())
            if (login.kind === 'valid') return `${group}:a:${login.accountId}`
          }
        } catch {
          // The database failed: the IP's bucket limits the request, and the route answers its own 500.
          stateOf(request).key = undefined
        }
      }
    }
    return `${group}:ip:${networkOf(state.ip)}`
  }

  /** Takes one token (or only looks, when `spend` is false); a refusal answers 429 before any handler or body parsing runs. */
  function takeToken(state: RequestState, group: LimitGroup, request: Request, spend: boolean): Response | null {
    const key = bucketOf(state, group, request)
    const limit = Math.floor(limits[group].perMinute * scale)
    const decision = spend ? limiter.take(key, limit) : limiter.peek(key, limit)
    state.headers['X-RateLimit-Limit'] = String(decision.limit)
    state.headers['X-RateLimit-Remaining'] = String(decision.remaining)
    state.headers['X-RateLimit-Reset'] = String(Math.ceil(decision.resetAt / 1000))
    if (decision.allowed || !spend) return null
    const retryAfter = Math.max(1, Math.ceil((decision.resetAt - clock.now()) / 1000))
    // docs/api.md: every response to a key due for rotation carries the rotation headers and warnings.
    if (state.key) noteRotation(deps, request, state.key)
    return tooMany(deps, state, request, retryAfter)
  }

  /** Adds the pipeline's headers to an answer built without them (preflight, a Response from a handler). */
  function decorate(response: Response, state: RequestState, request: Request): void {
    if (state.decorated) return
    const add = pipelineHeaders(deps, state, request, response.status)
    for (const name in add) {
      if (name === 'Vary') response.headers.append(name, add[name])
      else response.headers.set(name, add[name])
    }
  }

  return { app, fetch }
}
