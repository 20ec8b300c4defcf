import type { KeyMatch } from '../../db/credentials.ts'
import { routeOf, type RouteEntry } from './route-lookup.ts'

/** What the pipeline learns about one request, shared by the wrapper in app.ts and the handlers. */
export interface RequestState {
  id: string
  path: string
  /** The path's entry in the route table (null: no route has it), looked up once by the pipeline. */
  entry: RouteEntry | null
  /** The client IP (TRUST_PROXY-aware), computed on first read. */
  readonly ip: string
  /** Headers added to the response whatever it is (rate limits, rotation, CORS). */
  headers: Record<string, string>
  /** Top-level `warnings` of a key due for rotation (docs/api.md, Authentication). */
  warnings: unknown[]
  /** The route's label for the log line (the path without ids). */
  route?: string
  /** The program key of the request's Bearer token, once looked up (null: it matches none). */
  key?: KeyMatch | null
  /** Set once the pipeline's headers are in the answer (built with them, or added after). */
  decorated?: boolean
}

// A symbol-keyed property of the request itself: a WeakMap entry per request cost the click path
// about 3% of its samples (bench/README.md), and the state dies with its request either way.
const STATE = Symbol('svc.requestState')
const states = {
  get: (request: Request): RequestState | undefined => (request as unknown as Record<symbol, RequestState>)[STATE],
  set: (request: Request, state: RequestState) => {
    ;(request as unknown as Record<symbol, RequestState>)[STATE] = state
  },
}

export function setState(request: Request, state: RequestState): void {
  states.set(request, state)
}

/** The state of a request that passed through the pipeline; a bare one for app.handle() in tests. */
export function stateOf(request: Request): RequestState {
  let state = states.get(request)
  if (!state) {
    const path = new URL(request.url).pathname
    state = { id: 'req_unknown', path, entry: routeOf(path), ip: 'unknown', headers: {}, warnings: [] }
    states.set(request, state)
  }
  return state
}
