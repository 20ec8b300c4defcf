import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'

// Layering rules that a reviewer would otherwise have to re-check by hand (README, Architecture).
const ROOT = join(import.meta.dir, '..')
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  )
const sources = files(join(ROOT, 'src')).map((path) => relative(ROOT, path))
/** Every source file above the storage layer: not src/db, and not the SQLite driver adapters of src/runtime. */
const aboveDb = sources.filter((path) => !path.startsWith('src/db/') && !path.startsWith('src/runtime/'))

const offending = (pattern: RegExp) => aboveDb.filter((path) => pattern.test(readFileSync(join(ROOT, path), 'utf8')))

/**
 * The repository-relative files a source file imports by a relative path. `values` leaves out
 * `import type` statements: erased at build, they order no module's loading.
 */
function importsOf(path: string, values = false): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8')
  const found: string[] = []
  for (const match of text.matchAll(/(import\s+type\s[^;]*?from|from|import)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g)) {
    if (values && /^import\s+type\s/.test(match[1] as string)) continue
    found.push(relative(ROOT, resolve(ROOT, dirname(path), match[2] as string)))
  }
  return found
}

/**
 * The room a file lives in: its folder, except that the two files at the top of src/http
 * (app.ts, which assembles every surface, and deps.ts, the interface they are all built from)
 * are rooms of their own, as are the files at the top of src (main.ts, config.ts, clock.ts, …).
 */
const roomOf = (path: string) => (dirname(path) === 'src/http' || dirname(path) === 'src' ? path : dirname(path))

/** room -> the rooms it imports, each with one file that does it (for the failure message). */
function roomGraph(values = false): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>()
  for (const path of sources) {
    const from = roomOf(path)
    const edges = graph.get(from) ?? new Map<string, string>()
    graph.set(from, edges)
    for (const target of importsOf(path, values)) {
      const to = roomOf(target)
      if (to !== from && target.startsWith('src/')) edges.set(to, `${path} -> ${target}`)
    }
  }
  return graph
}

test('nothing above src/db imports drizzle-orm, prepares SQL or writes a sql`` template', () => {
  expect(aboveDb.length).toBeGreaterThan(30)
  expect(offending(/from ['"]drizzle-orm/)).toEqual([])
  expect(offending(/\.prepare\(/)).toEqual([])
  expect(offending(/\bsql`/)).toEqual([])
  expect(offending(/\bdb\.(select|insert|update|delete)\(/)).toEqual([])
})

test('nothing above src/db reads SQLite error text: storage errors leave src/db as values', () => {
  expect(offending(/constraint failed|SQLITE_/i)).toEqual([])
  expect(offending(/['"]UNIQUE['"]/)).toEqual([])
})

test('no folder of src imports a folder that imports it, directly or through others', () => {
  // deps.ts names the pipeline's RateLimiter type while the pipeline is built from Deps: types only.
  const graph = roomGraph(true)
  const cycles: string[] = []
  // Depth-first search from every room; a room met again on the current path closes a cycle.
  const walk = (room: string, path: string[]) => {
    for (const [next, via] of graph.get(room) ?? []) {
      const at = path.indexOf(next)
      if (at >= 0) cycles.push([...path.slice(at), next].join(' -> ') + `   (${via})`)
      else if (path.length < 12) walk(next, [...path, next])
    }
  }
  for (const room of graph.keys()) walk(room, [room])
  expect(cycles).toEqual([])
})

test('an HTTP surface uses the pipeline and the layers below it, never another surface', () => {
  const surfaces = ['track', 'cli', 'admin', 'webhooks', 'docs', 'pages'].map((name) => `src/http/${name}`)
  // The two deliberate exceptions, each one way: the OpenAPI document describes the answers of the
  // tracking routes the pipeline serves without Elysia, and a CLI test event answers with the very
  // bodies and errors of the tracking endpoints it runs (docs/api.md, CLI test events).
  const allowed = new Set(['src/http/docs -> src/http/track', 'src/http/cli -> src/http/track'])
  const crossings = [...roomGraph()].flatMap(([from, edges]) =>
    surfaces.includes(from)
      ? [...edges].filter(([to]) => surfaces.includes(to) && !allowed.has(`${from} -> ${to}`)).map(([, via]) => via)
      : [],
  )
  expect(crossings).toEqual([])
})

test('the CLI and the client library import nothing of the server: they talk HTTP', () => {
  const serverSide = /^src\/(http|db|tracking|outbox|runtime)\//
  const leaks = sources
    .filter((path) => path.startsWith('src/cli/') || path.startsWith('src/client/'))
    .flatMap((path) =>
      importsOf(path)
        .filter((target) => serverSide.test(target) || target === 'src/config.ts')
        .map((t) => `${path} -> ${t}`),
    )
  expect(leaks).toEqual([])
})

test('a folder holds no three files that share a name prefix: a prefix that repeats is a folder', () => {
  const crowded: string[] = []
  for (const dir of new Set([...sources, ...files(join(ROOT, 'test')).map((p) => relative(ROOT, p))].map(dirname))) {
    const count = new Map<string, string[]>()
    for (const name of readdirSync(join(ROOT, dir)).filter((n) => /\.tsx?$/.test(n))) {
      const prefix = basename(name).split(/[-.]/)[0] as string
      count.set(prefix, [...(count.get(prefix) ?? []), name])
    }
    for (const [prefix, names] of count) if (names.length >= 3) crowded.push(`${dir}: ${prefix}-* (${names.join(', ')})`)
  }
  expect(crowded).toEqual([])
})
