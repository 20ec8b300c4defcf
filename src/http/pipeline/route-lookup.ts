import type { InternalError } from './errors.ts'
import { cliRoute } from './cli-rows.ts'
import { type Envelope, type LimitGroup, type Reads, type Route, routeTable } from './route-table.ts'

// Looking a request's path up in the route table (route-table.ts): once per request, by a trie
// of the rows' path templates, so that the pipeline reads a route's envelope, limit, CORS and
// 500 message from its entry.

/** What the pipeline knows of a path, whatever the method: the rows of one path agree on all of it. */
export interface RouteEntry {
  /** The path as the routes write it ('/api/v1/admin/programs/:id'), or a namespace's prefix and '*'. */
  path: string
  envelope: Envelope
  codes: Record<number, string> | null
  limit: LimitGroup | null
  browser: boolean
  reads: Reads
  failure: InternalError | null
  /** The rows of the path by method. */
  methods: Record<string, Route>
}

/**
 * Paths under a namespace that no route answers still get its behaviour: probing unknown CLI paths
 * spends the CLI bucket like the CLI routes do (docs/api.md, Limits).
 */
const namespaces: { prefix: string; route: Route }[] = [{ prefix: '/api/v1/cli/', route: cliRoute() }]

const pathFields = ['envelope', 'codes', 'limit', 'browser', 'reads', 'failure'] as const

function entryOf(path: string, route: Route): RouteEntry {
  return {
    path,
    envelope: route.envelope ?? 'platform',
    codes: route.codes ?? null,
    limit: route.limit ?? null,
    browser: route.browser ?? false,
    reads: route.reads ?? 'json',
    failure: route.failure ?? null,
    methods: Object.create(null),
  }
}

/** One segment of the templates: static children first, then a `:param`, then a `*` that takes the rest. */
interface Node {
  children: Map<string, Node>
  param: Node | null
  entry: RouteEntry | null
  wildcard: RouteEntry | null
}
const node = (): Node => ({ children: new Map(), param: null, entry: null, wildcard: null })

const entries = new Map<string, RouteEntry>()
const staticPaths = new Map<string, RouteEntry>()
const templates = node()
for (const [key, route] of Object.entries(routeTable)) {
  const space = key.indexOf(' ')
  const method = key.slice(0, space)
  const path = key.slice(space + 1)
  let entry = entries.get(path)
  if (!entry) {
    entry = entryOf(path, route)
    entries.set(path, entry)
    if (!path.includes(':') && !path.includes('*')) staticPaths.set(path, entry)
    else {
      let at = templates
      const segments = path.slice(1).split('/')
      for (const [i, segment] of segments.entries()) {
        if (segment === '*' && i === segments.length - 1) at.wildcard = entry
        else if (segment.startsWith(':')) at = at.param ??= node()
        else at = at.children.get(segment) ?? at.children.set(segment, node()).get(segment)!
      }
      if (!path.endsWith('*')) at.entry = entry
    }
  }
  const fresh = entryOf(path, route)
  for (const field of pathFields) {
    if (fresh[field] !== entry[field]) throw new Error(`route table: ${key} disagrees with the other methods of ${path} on ${field}`)
  }
  entry.methods[method] = route
}
const namespaceEntries = namespaces.map(({ prefix, route }) => ({ prefix, entry: entryOf(`${prefix}*`, route) }))

/** Walks the templates from `from` (just after a '/'); at most two branches per segment, as deep as the deepest template. */
function walk(at: Node, path: string, from: number): RouteEntry | null {
  let end = path.indexOf('/', from)
  if (end === -1) end = path.length
  const segment = path.slice(from, end)
  const last = end === path.length
  let found: RouteEntry | null = null
  const child = at.children.get(segment)
  if (child) found = last ? child.entry : walk(child, path, end + 1)
  if (!found && at.param && segment !== '') found = last ? at.param.entry : walk(at.param, path, end + 1)
  return found ?? at.wildcard
}

/**
 * The entry of a request path (without its trailing slashes), or null when no route and no
 * namespace has it. A Map answers the static paths (click, sale…); only the others walk the
 * `:param` templates, segment by segment, with no regular expression.
 */
export function routeOf(path: string): RouteEntry | null {
  const found = staticPaths.get(path) ?? (path.charCodeAt(0) === 47 ? walk(templates, path, 1) : null)
  if (found) return found
  for (const space of namespaceEntries) if (path.startsWith(space.prefix)) return space.entry
  return null
}
