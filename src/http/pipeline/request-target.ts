/** URLs longer than this (path and query) are refused with 400 (docs/decisions.md, Hostile input). */
export const URL_LIMIT = 8 * 1024

export interface RequestTarget {
  /**
   * The path with every run of slashes made one and no trailing slash (`/` stays `/`): the one path
   * of routes, limits and ids (`//api//v1/track/click/` is `/api/v1/track/click`).
   */
  path: string
  /** `?` and the query, or '' */
  query: string
  /** The path and query are over URL_LIMIT. */
  tooLong: boolean
  /** Elysia would find another path in this URL (or repeated or trailing slashes): route on a rebuilt one. */
  rebuild: boolean
}

const SLASH = 47

/**
 * Splits a request URL into the path and query the whole pipeline uses, whatever the Host header
 * made of the URL: Bun gives `http://x/p` for `Host: x` and a bare `/p` for an empty or invalid
 * Host. Plain index scans, linear in the URL: no regular expression runs over it.
 */
export function requestTarget(url: string): RequestTarget {
  let pathStart = 0
  if (url.charCodeAt(0) !== SLASH) {
    pathStart = url.indexOf('/', url.indexOf('://') + 3)
    if (pathStart === -1) pathStart = url.length
  }
  const queryStart = url.indexOf('?', pathStart)
  const pathEnd = queryStart === -1 ? url.length : queryStart
  let end = pathEnd
  while (end - pathStart > 1 && url.charCodeAt(end - 1) === SLASH) end--
  let path = end > pathStart ? url.slice(pathStart, end) : '/'
  const doubled = path.indexOf('//')
  if (doubled !== -1) path = singleSlashes(path, doubled)
  return {
    path,
    query: queryStart === -1 ? '' : url.slice(queryStart),
    tooLong: url.length - pathStart > URL_LIMIT,
    // Elysia (adapter/*/compose) takes the path from the first '/' at or after index 11.
    rebuild: end !== pathEnd || doubled !== -1 || pathStart < 11 || url.indexOf('/', 11) !== pathStart,
  }
}

/** `path` with each run of slashes from `from` on made one slash (and none left at the end but for `/`). */
function singleSlashes(path: string, from: number): string {
  let out = path.slice(0, from + 1)
  for (let i = from + 1; i < path.length; i++) {
    const slash = path.charCodeAt(i) === SLASH
    if (!slash || out.charCodeAt(out.length - 1) !== SLASH) out += path[i]
  }
  return out.length > 1 && out.charCodeAt(out.length - 1) === SLASH ? out.slice(0, -1) : out
}
