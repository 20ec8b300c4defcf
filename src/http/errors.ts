import { HttpError } from './envelope'
import { click, cli, lead, refund, sale, shared } from './messages'

type InternalError = (requestId: string) => HttpError

// CLI 500s carry the request id at the end of the message and in details (docs/errors.md, Request IDs).
const cliError = (message: string): InternalError => (id) =>
  new HttpError(500, `${message} (request_id: ${id})`, { details: { request_id: id } })
const plain = (message: string): InternalError => () => new HttpError(500, message)

/** The deliberately generic 500 of each route (docs/errors.md, 500 errors; CLI errors). */
const internalErrors: Record<string, InternalError> = {
  '/api/v1/track/click': plain(click.failed),
  '/api/v1/track/lead': plain(lead.failed),
  '/api/v1/track/sale': plain(sale.failed),
  '/api/v1/track/refund': plain(refund.failed),
  '/api/v1/programs/me/readiness': () =>
    new HttpError(500, shared.readinessFailed, { typed: true, code: 'internal_error', extra: { retry_after_seconds: 10 } }),
  '/api/v1/cli/auth/start': cliError(cli.startFailed),
  '/api/v1/cli/auth/callback': cliError(cli.callbackFailed),
  '/api/v1/cli/auth/poll': cliError(cli.pollFailed),
  '/api/v1/cli/init': cliError(cli.initFailed),
  '/api/v1/cli/programs': cliError(cli.programsFailed),
  '/api/v1/cli/status': cliError(cli.statusFailed),
  '/api/v1/cli/test-event': cliError(cli.testEventFailed),
}

/** The 500 answered for an unexpected failure on `path`. */
export function internalError(path: string, requestId: string): HttpError {
  return (internalErrors[path] ?? plain(shared.internal))(requestId)
}
