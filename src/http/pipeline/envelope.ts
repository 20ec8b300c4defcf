import type { RouteEntry } from './route-lookup.ts'

/**
 * The two error envelopes of docs/errors.md (Errors). Every failure is an HttpError; the one error
 * handler in app.ts renders it here. `error` is always an object, never a string.
 */

export const errorNames: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  410: 'GoneError',
  422: 'UnprocessableEntityError',
  429: 'TooManyRequestsError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
}

export interface HttpErrorOptions {
  /** error.code: always rendered in the typed envelope; in the platform one on the coded routes (sale and refund). */
  code?: string
  details?: Record<string, unknown>
  /** Render the typed envelope (no `data` key) instead of the platform one. */
  typed?: boolean
  /** Extra fields inside the typed envelope's `error` (hint, docs_url, retry_after_seconds…). */
  extra?: Record<string, unknown>
  /** Extra top-level fields (link_disabled keeps `success: false` and `message`). */
  top?: Record<string, unknown>
  headers?: Record<string, string>
}

/** A request failure with its status, message and envelope; thrown anywhere in http/. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: HttpErrorOptions = {},
  ) {
    super(message)
  }
}

/**
 * The JSON body of an HttpError answered on `route` (its entry in the route table, null when no
 * route has the path), with top-level warnings when a key is due for rotation.
 */
export function errorBody(error: HttpError, route: RouteEntry | null, warnings?: unknown[]): Record<string, unknown> {
  const { code, details, typed, extra, top } = error.options
  let body: Record<string, unknown>
  if (typed) {
    body = { ...top, error: { code, message: error.message, ...extra } }
  } else {
    // docs/errors.md, Platform envelope: a coded route (sale, refund) adds error.code to every error.
    const codes = route?.codes
    const withCode = codes ? { code: code ?? codes[error.status] } : {}
    body = {
      data: null,
      error: {
        status: error.status,
        name: errorNames[error.status] ?? 'Error',
        message: error.message,
        details: details ?? {},
        ...withCode,
      },
    }
  }
  if (warnings?.length) body.warnings = warnings
  return body
}

/** A JSON response with the given status and headers. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

/** The platform success envelope. */
export function ok<T>(data: T): { data: T; error: null } {
  return { data, error: null }
}
