import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

// Layering rules that a reviewer would otherwise have to re-check by hand (README, Architecture).
const ROOT = join(import.meta.dir, '..')
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  )
/** Every source file above the storage layer: not src/db, and not the SQLite driver adapters of src/runtime. */
const aboveDb = files(join(ROOT, 'src'))
  .map((path) => relative(ROOT, path))
  .filter((path) => !path.startsWith('src/db/') && !path.startsWith('src/runtime/'))

const offending = (pattern: RegExp) => aboveDb.filter((path) => pattern.test(readFileSync(join(ROOT, path), 'utf8')))

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
