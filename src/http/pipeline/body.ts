import { HttpError } from './envelope.ts'
import { shared } from '../../domain/messages.ts'

export const BODY_LIMIT = 64 * 1024

/**
 * How much of an oversized body is read (and thrown away) before the answer, so that the client,
 * still sending, reads the 400 instead of a reset (docs/decisions.md, Hostile input). A body declared
 * longer is answered at once; the transport's own ceiling is lifted (src/runtime/bun.ts).
 */
export const DRAIN_LIMIT = 64 * 1024 * 1024

/**
 * A body that could not be read (wrong content type, too large, malformed JSON). It is handed to
 * the route instead of thrown, so that the route's credential check answers first: a request
 * without a valid key gets its 401 whatever its body (docs/errors.md's 401 table), and the body's 400
 * comes when the route reads the body (acceptedBody, bodyChecker).
 */
export class RefusedBody {
  constructor(readonly error: HttpError) {}
}

/**
 * For a route that takes no body: whatever is sent is ignored, except a body over the limit, which
 * answers the 400 every route gives it (docs/decisions.md: every body over a route's limit).
 * Called after the route's credential check, which answers first as everywhere.
 */
export function noBody(body: unknown): void {
  if (body instanceof RefusedBody && body.error.message === shared.bodyTooLarge) throw body.error
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
    const type = request.headers.get('content-type')
    if (type !== null && !jsonType(type)) {
      await drainBody(request)
      throw new HttpError(400, shared.contentType)
    }
    // A declared length within BODY_LIMIT is decoded by the runtime in one call: half the cost of
    // the bytes and a TextDecoder (issue 14). Either way a byte order mark is dropped and bad bytes replaced.
    const text = (declaredWithin(request) ? await request.text() : decoder.decode(await limitedBytes(request))).trim()
    if (!text) return {}
    try {
      return JSON.parse(text)
    } catch {
      throw new HttpError(400, shared.malformedJson)
    }
  } catch (error) {
    if (error instanceof HttpError) return new RefusedBody(error)
    throw error
  }
}

/** JSON, text/plain (the tracker's) or any +json media type, whatever its parameters; an empty type counts as none. */
function jsonType(header: string): boolean {
  const semicolon = header.indexOf(';')
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase()
  return !type || type === 'application/json' || type === 'text/plain' || type.endsWith('+json')
}

async function limitedBytes(request: Request): Promise<Uint8Array> {
  const bytes = await readLimited(request, BODY_LIMIT)
  if (!bytes) throw new HttpError(400, shared.bodyTooLarge)
  return bytes
}

const decoder = new TextDecoder()

/**
 * The body's bytes, or null when there are more than `limit` of them. Only `limit` bytes are ever
 * held: a body that declares its length within the limit is read whole (the framing bounds it);
 * a chunked one is counted as it arrives. An oversized body is drained (read and dropped, up to
 * DRAIN_LIMIT) before this returns, so that the answer reaches a client that is still sending.
 */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = declaredLength(request)
  if (declared !== null) {
    if (declared > limit) {
      await drainBody(request)
      return null
    }
    if (declared <= limit) return new Uint8Array(await request.arrayBuffer())
  }
  const reader = request.body?.getReader()
  if (!reader) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await drainReader(reader, size)
      return null
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return chunks[0]
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

/**
 * Reads what is left of a body nobody read (an answer decided before the body: 404, 429, 401)
 * and drops it, so that the client is not reset while it sends. Does nothing for a body already
 * read or absent, nor for a declared length within BODY_LIMIT when the runtime drops such bodies
 * itself and keeps the connection (`runtimeDiscards`, Bun: a 429 flood's body cost 1.2 of its
 * 5.5 µs in process, issue 14). Larger and chunked bodies are always drained here.
 */
export async function drainBody(request: Request, runtimeDiscards = false): Promise<void> {
  if (!mustDrain(request, runtimeDiscards)) return
  // A declared length past DRAIN_LIMIT is not waited for: the answer goes now, and the runtime
  // drops or closes what follows (nobody reads a gigabyte to say no, nor waits for one never sent).
  const declared = declaredLength(request)
  if (declared !== null && declared > DRAIN_LIMIT) return
  // A body that declares a length within BODY_LIMIT is read whole by the runtime: no stream, no
  // reader, no promise per chunk (the stream cost a 429 flood a fifth of its samples, issue 14).
  if (declaredWithin(request)) {
    try {
      await request.arrayBuffer()
    } catch {
      // The client went away mid-body: there is nobody left to answer.
    }
    return
  }
  const reader = request.body?.getReader()
  if (reader) await drainReader(reader, 0)
}

/** The body's declared Content-Length, or null when it declares none. */
function declaredLength(request: Request): number | null {
  const length = request.headers.get('content-length')
  return length === null ? null : Number(length)
}

/** A declared Content-Length within BODY_LIMIT: read whole by the runtime. */
function declaredWithin(request: Request): boolean {
  const declared = declaredLength(request)
  return declared !== null && declared <= BODY_LIMIT
}

/**
 * Whether drainBody has anything to do: a body left unread that the runtime does not drop
 * itself. (It looks at `request.body` only without a declared length: building a stream for a
 * body already whole would cost a 429 flood for nothing.)
 */
export function mustDrain(request: Request, runtimeDiscards = false): boolean {
  if (request.bodyUsed) return false
  if (declaredWithin(request)) return !runtimeDiscards
  return request.body !== null
}

async function drainReader(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number): Promise<void> {
  try {
    while (seen <= DRAIN_LIMIT) {
      const { done, value } = await reader.read()
      if (done) return
      seen += value.byteLength
    }
    await reader.cancel()
  } catch {
    // The client went away mid-body: there is nobody left to answer.
  }
}
