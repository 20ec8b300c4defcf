import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { embeddedMigrationsSource } from '../../db/embed.ts'

test('the embedded migrations match db/migrations (run `bun db/embed.ts` after drizzle-kit generate)', () => {
  const embedded = readFileSync(join(import.meta.dir, '../../src/db/migrations.gen.ts'), 'utf8')
  expect(embedded).toBe(embeddedMigrationsSource())
})
