// The stack's floor for bench/cold-start.ts (issue 36): Elysia + Drizzle over bun:sqlite with WAL
// and synchronous=FULL, one table, GET /healthz reading it. What svc cannot start faster than.
import { Database } from 'bun:sqlite'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'
import { Elysia } from 'elysia'

const things = sqliteTable('things', { id: integer('id').primaryKey() })
const client = new Database(process.env.DATABASE_PATH ?? './floor.db', { create: true })
client.exec('PRAGMA journal_mode = WAL')
client.exec('PRAGMA synchronous = FULL')
client.exec('CREATE TABLE IF NOT EXISTS things (id INTEGER PRIMARY KEY)')
const db = drizzle(client)
new Elysia()
  .get('/healthz', () => ({ ok: true, things: db.select({ n: sql<number>`count(*)` }).from(things).get()?.n ?? 0 }))
  .listen({ port: Number(process.env.PORT ?? 3999), hostname: '127.0.0.1' })
