/**
 * The bare baselines the benchmark compares the service with (issue 3, Benchmark): the fastest a
 * Bun.serve + bun:sqlite server on this machine can parse a JSON body and insert one row.
 *
 *   bun bench/baseline-serve.ts <mode> <port> [database path] [sync]
 *
 * mode:
 *   commit  one transaction (one fsync) per request: the ceiling without group commit
 *   group   the group-commit writer of docs/decisions.md reduced to its core: writes queued in one turn
 *           share one BEGIN IMMEDIATE … COMMIT flushed on setImmediate, each in a SAVEPOINT, and
 *           every request is answered only after COMMIT
 *   group-elysia  the same group commit behind a bare Elysia route (issue 14's "bare Elysia + bun:sqlite server
 *           doing group commit"): the like-for-like ceiling of a service built on Elysia
 *   elysia  a bare Elysia JSON route, no database: the yardstick for how cheap a 429 should be
 * sync: FULL (default, like the service) or NORMAL.
 *
 * Prints one JSON line `{"ready":true,"port":…}` once listening; exits on SIGTERM or when stdin closes
 * (so that a crashed parent never leaves it behind).
 */
import { Database } from 'bun:sqlite'

const [mode, portText, dbPath, syncText] = process.argv.slice(2)
const port = Number(portText ?? 0)
const sync = (syncText ?? 'FULL').toUpperCase()
if (!['commit', 'group', 'group-elysia', 'elysia'].includes(mode ?? '')) {
  console.error('usage: bun bench/baseline-serve.ts commit|group|group-elysia|elysia <port> [db path] [FULL|NORMAL]')
  process.exit(2)
}
if (sync !== 'FULL' && sync !== 'NORMAL') {
  console.error('sync must be FULL or NORMAL')
  process.exit(2)
}

function openDb(path: string): Database {
  const db = new Database(path, { create: true, strict: true })
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(`PRAGMA synchronous = ${sync}`)
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec(
    'CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, amount_cents INTEGER NOT NULL, created_at INTEGER NOT NULL)',
  )
  return db
}

interface Body {
  transaction_id?: unknown
  affiliate_url?: unknown
  amount_cents?: unknown
}

/** A unique key for the row: the body's transaction_id when sent, else a counter. */
let counter = 0
const keyOf = (body: Body) => (typeof body.transaction_id === 'string' ? body.transaction_id : `k${++counter}-${Math.random()}`)

const jsonHeaders = { 'content-type': 'application/json' }
const ok = (id: unknown) => new Response(JSON.stringify({ data: { id }, error: null }), { headers: jsonHeaders })
const bad = (message: string, status = 400) =>
  new Response(JSON.stringify({ data: null, error: { message } }), { status, headers: jsonHeaders })

async function readJson(request: Request): Promise<Body | null> {
  try {
    const body = await request.json()
    return body && typeof body === 'object' ? (body as Body) : null
  } catch {
    return null
  }
}

type Write = (insertOne: () => number) => number | Promise<number>

/** Answers one parsed body by inserting its row through `write`; a UNIQUE violation answers 409. */
function inserter(db: Database, write: Write) {
  const insert = db.prepare('INSERT INTO events (key, amount_cents, created_at) VALUES (?, ?, ?)')
  return async (body: Body | null): Promise<Response> => {
    if (!body) return bad('Malformed JSON')
    try {
      return ok(await write(() => Number(insert.run(keyOf(body), Number(body.amount_cents ?? 1), Date.now()).lastInsertRowid)))
    } catch {
      return bad('duplicate', 409)
    }
  }
}

/** Serves POSTs that insert one row each through `write`, on Bun.serve alone. */
function serveInserts(db: Database, write: Write) {
  const answer = inserter(db, write)
  return Bun.serve({ port, hostname: '127.0.0.1', fetch: async (request) => answer(await readJson(request)) })
}

/** bun:sqlite in autocommit mode: one implicit transaction, one fsync of the WAL at FULL, per request. */
const serveCommit = (db: Database) => serveInserts(db, (insertOne) => insertOne())

/** The group-commit writer of docs/decisions.md reduced to its core. */
function groupWrite(db: Database): Write {
  type Pending = { unit: () => number; resolve: (v: number) => void; reject: (e: unknown) => void }
  let queue: Pending[] = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    const batch = queue
    queue = []
    if (batch.length === 0) return
    const outcomes: { ok: boolean; value: unknown }[] = []
    db.exec('BEGIN IMMEDIATE')
    for (const p of batch) {
      db.exec('SAVEPOINT unit')
      try {
        outcomes.push({ ok: true, value: p.unit() })
        db.exec('RELEASE unit')
      } catch (error) {
        db.exec('ROLLBACK TO unit')
        db.exec('RELEASE unit')
        outcomes.push({ ok: false, value: error })
      }
    }
    try {
      db.exec('COMMIT')
    } catch (error) {
      try {
        db.exec('ROLLBACK')
      } catch {
        /* already rolled back */
      }
      for (const p of batch) p.reject(error)
      return
    }
    batch.forEach((p, i) => {
      if (outcomes[i].ok) p.resolve(outcomes[i].value as number)
      else p.reject(outcomes[i].value)
    })
  }
  return (unit) =>
    new Promise<number>((resolve, reject) => {
      queue.push({ unit, resolve, reject })
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    })
}

/** Group commit behind a bare Elysia route: Elysia parses the JSON body, the route inserts the row. */
async function serveGroupElysia(db: Database) {
  const { Elysia } = await import('elysia')
  const answer = inserter(db, groupWrite(db))
  const app = new Elysia().post('/*', ({ body }) => answer(body && typeof body === 'object' ? (body as Body) : null))
  return Bun.serve({ port, hostname: '127.0.0.1', fetch: app.fetch })
}

async function serveElysia() {
  const { Elysia } = await import('elysia')
  const app = new Elysia().post('/*', ({ body }) => ({ data: { received: typeof body === 'object' }, error: null }))
  return Bun.serve({ port, hostname: '127.0.0.1', fetch: app.fetch })
}

const db = mode === 'elysia' ? null : openDb(dbPath ?? ':memory:')
const server =
  mode === 'commit'
    ? serveCommit(db!)
    : mode === 'group'
      ? serveInserts(db!, groupWrite(db!))
      : mode === 'group-elysia'
        ? await serveGroupElysia(db!)
        : await serveElysia()
console.log(JSON.stringify({ ready: true, mode, sync, port: server.port, pid: process.pid }))

const stop = () => {
  server.stop(true)
  db?.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
// The parent holds our stdin open; when it dies, stdin ends and so do we.
process.stdin.on('end', stop)
process.stdin.resume()
