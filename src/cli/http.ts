import { CliError } from './errors.ts'
import { sleep, trimSlashes, type Ctx } from './context.ts'

/** One HTTP answer: status, headers, the parsed JSON body (null when not JSON) and its text. */
export type Reply = { status: number; headers: Headers; body: any; text: string }

export type RequestOptions = {
  token?: string
  json?: unknown
  /** Sent byte for byte (a signed webhook payload must not be re-serialised). */
  raw?: string
  headers?: Record<string, string>
}

// Retry-After on the per-minute limits is at most 60 s (docs/api.md, Limits); the
// synthetic chain cap can ask for up to an hour, which is not worth blocking on.
const MAX_WAIT_SECONDS = 60
const MAX_RETRIES = 3
const TIMEOUT_MS = 30_000

/**
 * Sends one request and returns the answer whatever its status. A 429 is retried
 * after Retry-After (safe: the limiter refuses before the endpoint runs). Throws
 * CliError (exit 1) when the server cannot be reached.
 */
export async function request(ctx: Ctx, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  for (let attempt = 0; ; attempt++) {
    const reply = await send(ctx, method, path, opts)
    if (reply.status !== 429 || attempt >= MAX_RETRIES) return reply
    const wait = retryAfterSeconds(reply)
    if (wait > MAX_WAIT_SECONDS) return reply
    ctx.err(`Rate limited; retrying in ${wait}s…`)
    await sleep(wait * 1000)
  }
}

/** Like request, but a non-2xx answer becomes a CliError carrying the server's message. */
export async function call(ctx: Ctx, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const reply = await request(ctx, method, path, opts)
  printWarnings(ctx, reply.body)
  if (reply.status < 200 || reply.status > 299) throw failure(reply)
  return reply
}

async function send(ctx: Ctx, method: string, path: string, opts: RequestOptions): Promise<Reply> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  let body: string | undefined = opts.raw
  if (opts.json !== undefined) body = JSON.stringify(opts.json)
  if (body !== undefined) headers['content-type'] ??= 'application/json'
  const url = trimSlashes(ctx.baseUrl) + path
  let res: Response
  try {
    res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (e) {
    throw new CliError(`Could not reach ${ctx.baseUrl}: ${(e as Error).message}`, 1)
  }
  const text = await res.text()
  let parsed: unknown = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    // Not JSON (a proxy's HTML page, say): keep the text for the error line.
  }
  return { status: res.status, headers: res.headers, body: parsed, text }
}

/** Seconds to wait before retrying a 429: the header first, then the typed envelope's field. */
export function retryAfterSeconds(reply: Reply): number {
  const header = reply.headers.get('retry-after')
  if (header) {
    const seconds = Number(header)
    if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds))
    const date = Date.parse(header)
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000))
  }
  const field = Number(reply.body?.error?.retry_after_seconds)
  return Number.isFinite(field) && field >= 0 ? Math.ceil(field) : 1
}

/**
 * Builds the error line from a failed answer. Clients read error.code first and
 * fall back to error.message (docs/errors.md, Typed envelope), but people read the
 * message, so it is printed when present and the code otherwise. The request id
 * comes from X-Request-ID or error.details.request_id; CLI 500 messages already
 * end with it, so it is not repeated then.
 */
export function failure(reply: Reply): CliError {
  const error = reply.body?.error
  let message: string =
    (typeof error?.message === 'string' && error.message) ||
    (typeof error?.code === 'string' && error.code) ||
    (typeof error === 'string' && error) ||
    (typeof reply.body?.message === 'string' && reply.body.message) ||
    `HTTP ${reply.status}${reply.text ? `: ${reply.text.slice(0, 200)}` : ''}`
  const requestId = reply.headers.get('x-request-id') ?? error?.details?.request_id
  if (requestId && !message.includes(requestId)) message += ` (request_id: ${requestId})`
  if (reply.status === 429) message += ` (retry after ${retryAfterSeconds(reply)}s)`
  if (typeof error?.hint === 'string') message += `\n${error.hint}`
  if (typeof error?.docs_url === 'string') message += `\nSee ${error.docs_url}`
  return new CliError(message, 1, reply.body ?? reply.text)
}

// A key marked for rotation still works but the body carries `warnings`
// (docs/api.md, Authentication); surface them on stderr so --json output stays clean.
function printWarnings(ctx: Ctx, body: any): void {
  if (!Array.isArray(body?.warnings)) return
  for (const w of body.warnings) {
    const by = w?.rotate_by ? ` (rotate by ${w.rotate_by})` : ''
    ctx.err(`Warning: ${w?.message ?? w?.code ?? 'unknown warning'}${by}`)
    if (w?.hint) ctx.err(`  ${w.hint}`)
    if (w?.docs_url) ctx.err(`  See ${w.docs_url}`)
  }
}
