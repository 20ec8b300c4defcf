import { HttpError } from './envelope'
import { shared } from './messages'

export const BODY_LIMIT = 64 * 1024

/**
 * A body that could not be read (wrong content type, too large, malformed JSON). It is handed to
 * the route instead of thrown, so that the route's credential check answers first: a request
 * without a valid key gets its 401 whatever its body (docs/errors.md's 401 table), and the body's 400
 * comes when the route reads the body (acceptedBody, bodyChecker).
 */
export class RefusedBody {
  constructor(readonly error: HttpError) {}
}

/** The parsed body, or the refused body's 400 thrown. */
export function acceptedBody(body: unknown): unknown {
  if (body instanceof RefusedBody) throw body.error
  return body
}

/**
 * Parses every request body as JSON, whatever route. text/plain is accepted because the tracker
 * sends JSON as text/plain to avoid a CORS preflight (issue 5); form and multipart bodies are
 * refused. An empty body is `{}`, so that the first required field's message answers it.
 */
export async function readBody(request: Request): Promise<unknown> {
  try {
    return await parseBody(request)
  } catch (error) {
    if (error instanceof HttpError) return new RefusedBody(error)
    throw error
  }
}

async function parseBody(request: Request): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type && type !== 'application/json' && type !== 'text/plain' && !type.endsWith('+json')) {
    throw new HttpError(400, shared.contentType)
  }
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > BODY_LIMIT) throw new HttpError(400, shared.bodyTooLarge)
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > BODY_LIMIT) throw new HttpError(400, shared.bodyTooLarge)
  const text = new TextDecoder().decode(bytes).trim()
  if (!text) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, shared.malformedJson)
  }
}
