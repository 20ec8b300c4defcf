import { HttpError } from './envelope.ts'
import { shared } from '../../domain/messages.ts'
import type { RouteEntry } from './route-lookup.ts'

/** The 500 of a route, built with the request's id. */
export type InternalError = (requestId: string) => HttpError

/** A 500 with a fixed message. */
export const plain =
  (message: string): InternalError =>
  () =>
    new HttpError(500, message)
// CLI 500s carry the request id at the end of the message and in details (docs/errors.md, Request IDs).
export const withRequestId =
  (message: string): InternalError =>
  (id) =>
    new HttpError(500, `${message} (request_id: ${id})`, { details: { request_id: id } })
/** A 500 in the typed envelope, with the seconds to wait before retrying. */
export const typedRetry =
  (message: string, seconds: number): InternalError =>
  () =>
    new HttpError(500, message, { typed: true, code: 'internal_error', extra: { retry_after_seconds: seconds } })

const generic = plain(shared.internal)

/** The deliberately generic 500 answered for an unexpected failure on a route (docs/errors.md, 500 errors; CLI errors). */
export function internalError(route: RouteEntry | null, requestId: string): HttpError {
  return (route?.failure ?? generic)(requestId)
}
