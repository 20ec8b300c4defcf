// One GET of a source, as the outgoing webhooks send (src/outbox/webhooks/post.ts): the address is
// checked on every request (the private-address rule, unless ALLOW_PRIVATE_URLS), the connection
// goes only to an address the DNS lookup checked (one answer: a name cannot resolve to a public
// address for the check and a private one for the connection), no redirect is followed, and the
// body is read up to a limit, never beyond (docs/imports.md).
import http from 'node:http'
import https from 'node:https'
import { guardedTarget } from '../outbox/webhooks/post.ts'
import { refusedUrl } from '../outbox/webhooks/target.ts'

/** The most an answer of a source may hold (docs/imports.md): a page past it ends the import. */
const SOURCE_BODY_LIMIT_BYTES = 10 * 1024 * 1024

/** An answer read whole: its status, Retry-After and body text. */
export interface SourceAnswer {
  status: number
  retryAfter: string | null
  text: string
}

/** A request refused before it left (a private address) or an answer past the limit: never retried. */
export class RefusedRequest extends Error {}

/** GETs `url`, answering its status and body; rejects on a network error, an abort, a refused address or a body past the limit. */
export function sourceGet(url: URL, headers: Record<string, string>, allowPrivate: boolean, signal: AbortSignal): Promise<SourceAnswer> {
  const refused = refusedUrl(url, allowPrivate)
  if (refused) return Promise.reject(new RefusedRequest(`could not be reached: ${refused.replace(/^url\b/, 'base_url')}`))
  const lib = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      request.destroy()
      reject(error)
    }
    const request = lib.request(
      {
        ...guardedTarget(url, allowPrivate),
        method: 'GET',
        headers,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = []
        let read = 0
        response.on('data', (chunk: Buffer) => {
          read += chunk.byteLength
          if (read > SOURCE_BODY_LIMIT_BYTES)
            return fail(new RefusedRequest(`answered ${url.pathname} with more than ${SOURCE_BODY_LIMIT_BYTES / 1024 / 1024} MB`))
          chunks.push(chunk)
        })
        response.on('end', () => {
          if (settled) return
          settled = true
          const retryAfter = response.headers['retry-after']
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            text: Buffer.concat(chunks).toString('utf8'),
          })
        })
        response.on('error', (error) => fail(error))
        // A connection closed before the body's end (or an abort mid-body) is a failed request, never a hang.
        response.on('close', () => fail(new Error('the answer ended early')))
      },
    )
    request.on('error', (error) => fail(error))
    signal.addEventListener('abort', () => fail(new Error('the request was stopped')), { once: true })
    request.end()
  })
}
