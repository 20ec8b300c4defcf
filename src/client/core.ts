// The one place the client library talks HTTP: JSON in, `{ ok, ... }` out, retries for
// the statuses docs/errors.md marks retryable (429 after Retry-After, 500 with backoff).

/** The `error` object of either envelope (platform or typed); `message` is always set. */
export type ApiError = {
  message: string
  code?: string
  name?: string
  status?: number
  details?: Record<string, unknown>
  [key: string]: unknown
}

/** A key-rotation warning (docs/api.md, Authentication), passed through untouched. */
export type ApiWarning = { code: string; message: string; hint?: string; rotate_by?: string; docs_url?: string }

/** Outcome of one call. `status` 0 means the service was never reached. Never thrown. */
export type Result<T> =
  | { ok: true; status: number; data: T; warnings?: ApiWarning[] }
  | { ok: false; status: number; error: ApiError; warnings?: ApiWarning[] }

export type RequestOptions = {
  baseUrl: string
  path: string
  body: unknown
  /** POST (the default) sends `body` as JSON; GET sends none (the query is in `path`). */
  method?: 'GET' | 'POST'
  apiKey?: string
  /** Extra attempts after the first for 429, 5xx and network errors. Default 2. */
  retries?: number
  /** First backoff delay; doubles per attempt with jitter. Default 300 ms. */
  backoffMs?: number
  /** A Retry-After longer than this is not waited for: the 429 is returned. Default 10 s. */
  maxDelayMs?: number
  fetch?: typeof fetch
  sleep?: (ms: number) => Promise<unknown>
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Seconds or an HTTP-date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

// docs/errors.md, 500 errors: "Failed to create commission" means the sale is stored and a retry
// would only answer 409, hiding the failure; every other 500 and 429 is worth retrying.
const retryable = (status: number, body: any) => status === 429 || (status >= 500 && body?.error?.message !== 'Failed to create commission')

/**
 * POSTs JSON (or GETs, with `method: 'GET'`) and unwraps the envelope: `data` on success (or the whole body when it has
 * no `data` key, as the click answer), the `error` object on failure. Resolves always.
 */
export async function postJson<T>(o: RequestOptions): Promise<Result<T>> {
  const { retries = 2, backoffMs = 300, maxDelayMs = 10_000, sleep = wait } = o
  const doFetch = o.fetch ?? fetch
  const url = o.baseUrl.slice(0, endWithoutSlashes(o.baseUrl)) + o.path
  const get = o.method === 'GET'
  const headers: Record<string, string> = get ? {} : { 'content-type': 'application/json' }
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`
  for (let attempt = 0; ; attempt++) {
    let res: Response
    try {
      res = await doFetch(url, get ? { method: 'GET', headers } : { method: 'POST', headers, body: JSON.stringify(o.body) })
    } catch (e) {
      if (attempt >= retries) return { ok: false, status: 0, error: { message: `Network error: ${String(e)}` } }
      await sleep(backoff(backoffMs, attempt))
      continue
    }
    const body = await readBody(res)
    if (retryable(res.status, body) && attempt < retries) {
      // Retry-After (header, or the typed envelope's retry_after_seconds) beats our own guess.
      const hinted =
        retryAfterMs(res.headers.get('retry-after')) ??
        (typeof body?.error?.retry_after_seconds === 'number' ? body.error.retry_after_seconds * 1000 : null)
      const delay = hinted ?? backoff(backoffMs, attempt)
      if (delay <= maxDelayMs) {
        await sleep(delay)
        continue
      }
    }
    return toResult<T>(res.status, body)
  }
}

function backoff(baseMs: number, attempt: number): number {
  const ms = baseMs * 2 ** attempt
  return ms / 2 + Math.random() * (ms / 2)
}

async function readBody(res: Response): Promise<any> {
  const text = await res.text()
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return { error: { message: text.slice(0, 200) } }
  }
}

function toResult<T>(status: number, body: any): Result<T> {
  const warnings = Array.isArray(body?.warnings) ? (body.warnings as ApiWarning[]) : undefined
  const extra = warnings ? { warnings } : {}
  if (status >= 200 && status < 300) {
    const data = body && typeof body === 'object' && 'data' in body ? body.data : body
    return { ok: true, status, data: data as T, ...extra }
  }
  const error = body?.error && typeof body.error === 'object' ? body.error : {}
  const message = typeof error.message === 'string' ? error.message : (body?.message ?? `HTTP ${status}`)
  return { ok: false, status, error: { ...error, message }, ...extra }
}

/** Where `url` ends once its trailing slashes are left off (by hand: no backtracking expression). */
function endWithoutSlashes(url: string): number {
  let end = url.length
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--
  return end
}
