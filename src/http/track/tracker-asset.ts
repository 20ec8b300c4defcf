import { Elysia } from 'elysia'
import { createHash } from 'node:crypto'
import type { Deps } from '../deps.ts'

/**
 * GET /tracker.js: the minified tracker with an ETag, a day-long cache (a week stale while
 * revalidating, so a new release reaches pages within a day) and gzip when accepted. The
 * encodings are computed once, at the first request, and fflate is loaded then (issue 36: nothing
 * a request may never need is loaded at start).
 */
export function trackerRoutes(deps: Deps) {
  let cached: Promise<{ plain: Uint8Array; gzip: Uint8Array; etag: string }> | null = null
  const asset = () =>
    (cached ??= import('fflate').then(({ gzipSync, strToU8 }) => {
      const plain = strToU8(deps.trackerSource)
      const etag = `"${createHash('sha256').update(plain).digest('base64url').slice(0, 22)}"`
      return { plain, gzip: gzipSync(plain, { level: 9 }), etag }
    }))
  return new Elysia({ name: 'tracker-asset' }).get(
    '/tracker.js',
    async ({ request }) => {
      const { plain, gzip, etag } = await asset()
      const headers: Record<string, string> = {
        'content-type': 'application/javascript; charset=utf-8',
        'cache-control': 'public, max-age=86400, stale-while-revalidate=604800',
        etag,
        vary: 'Accept-Encoding',
        'access-control-allow-origin': '*',
      }
      if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
      const wantsGzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
      if (wantsGzip) headers['content-encoding'] = 'gzip'
      return new Response((wantsGzip ? gzip : plain) as BodyInit, { headers })
    },
    { detail: { summary: 'The browser tracker script', tags: ['tracker'] } },
  )
}

/** If-None-Match by weak comparison (RFC 9110): `*`, or any listed tag with or without W/. */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}
