// The docs name files and routes; both move. A path or a route that a page names and the
// repository or the server no longer has sends a reader nowhere.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Api, startApi } from '../helpers.ts'

const ROOT = join(import.meta.dir, '../..')
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
  ...readdirSync(join(ROOT, 'src'))
    .filter((n) => existsSync(join(ROOT, 'src', n, 'README.md')))
    .map((n) => `src/${n}/README.md`),
]

test('every src/ or test/ path a doc names in backticks exists', () => {
  const missing: string[] = []
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8')
    for (const [, path] of text.matchAll(/`((?:src|test)\/[\w./-]+?)`/g)) {
      if (path.includes('*')) continue
      if (!existsSync(join(ROOT, path))) missing.push(`${page}: ${path}`)
    }
  }
  expect(missing).toEqual([])
})

let api: Api
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api.stop())

test('every "METHOD /api/v1/…" a doc names is a route the server serves with that method', async () => {
  const document = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> }
  // OpenAPI writes {id}; the docs write :id or <id>. Both become one placeholder.
  const shape = (path: string) => path.replace(/\{[^}]+\}|:[a-z_]+|<[a-z_]+>|\b\d+\b/g, '*').replace(/\/$/, '')
  const served = new Set(
    Object.entries(document.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${shape(path)}`)),
  )
  const unknown: string[] = []
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8')
    for (const [, method, path, wildcard] of text.matchAll(/\b(GET|POST|PATCH|PUT|DELETE) (\/api\/v1\/[\w/:<>{}.-]*[\w>])(\/\*)?/g)) {
      if (wildcard) continue // a family of routes ("POST /api/v1/track/*")
      const route = `${method} ${shape(path as string)}`
      if (!served.has(route)) unknown.push(`${page}: ${method} ${path}`)
    }
  }
  expect(unknown).toEqual([])
})
