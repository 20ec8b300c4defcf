import { HttpError } from './envelope'
import { shared } from './messages'

export const BODY_LIMIT = 64 * 1024

/**
 * Parses every request body as JSON, whatever route. text/plain is accepted because the tracker
 * sends JSON as text/plain to avoid a CORS preflight (issue 5); form and multipart bodies are
 * refused. An empty body is `{}`, so that the first required field's message answers it.
 */
export async function readBody(request: Request): Promise<unknown> {
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
