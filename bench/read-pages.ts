/**
 * Read-route pages at a million rows (issue 10): `bun bench/read-pages.ts` (never run by npm test).
 *
 * Fills program 1 with BENCH_ROWS (1,000,000) sales, commissions and customers and a tenth as
 * many processor events, with program 2's rows around them (every tenth row) and program 3's far
 * apart (one row in 10,000), then serves the database with the real server and times GET
 * /api/v1/admin/programs/:id/{sales,commissions,customers,events,partners,links}: the first page,
 * a page from the middle (cursor) and the last page, each the median of BENCH_REPEAT (30) calls
 * over HTTP, and the query alone. Sales have no index by program (issue 14, src/db/sale-pages.ts):
 * their pages are also timed for programs 2 and 3, whose sales are spread over many blocks.
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/db/open.ts'
import { SALE_BLOCK_BITS } from '../src/db/sale-pages.ts'
import { bunRuntime } from '../src/runtime/bun.ts'
import { startQuiet } from './lib/in-process.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30)
const TOKEN = 'bench-admin-token-0123456789'
const dir = mkdtempSync(join(tmpdir(), 'svc-read-pages-'))
const path = join(dir, 'svc.db')

function fill() {
  const started = performance.now()
  openDatabase(bunRuntime, path).close() // the schema, migrated
  const db = new Database(path)
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF')
  const now = Date.now()
  db.exec(`INSERT INTO accounts (email, created_at) VALUES ('bench@shop.test', ${now})`)
  db.exec(`INSERT INTO advertisers (account_id, created_at) VALUES (1, ${now})`)
  for (const p of [1, 2, 3]) {
    db.exec(
      `INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (1, 'P${p}', 'shop.test', 'percent', 10, ${now})`,
    )
    db.exec(`INSERT INTO partners (program_id, name, created_at) VALUES (${p}, 'Partner', ${now})`)
    db.exec(`INSERT INTO links (program_id, partner_id, short_link, created_at) VALUES (${p}, ${p}, 'bench${p}', ${now})`)
  }
  const customer = db.prepare(
    'INSERT INTO customers (program_id, customer_key, partner_id, link_id, status, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const sale = db.prepare(
    'INSERT INTO sales (program_id, customer_id, transaction_id, amount_cents, currency, occurred_at, attribution, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const commission = db.prepare(
    "INSERT INTO commissions (program_id, sale_id, partner_id, kind, amount_cents, currency, created_at) VALUES (?, ?, ?, 'commission', ?, 'USD', ?)",
  )
  const event = db.prepare(
    "INSERT INTO processor_events (event_id, program_id, type, outcome, created_at) VALUES (?, ?, 'invoice.payment_succeeded', 'attributed', ?)",
  )
  const attribution = JSON.stringify({ rule: 'click', click_id: 'clk_x', partner_id: 1, link_id: 1, window_days: 60 })
  const batch = 50_000
  for (let from = 0; from < ROWS; from += batch) {
    db.transaction(() => {
      for (let i = from; i < Math.min(ROWS, from + batch); i++) {
        // Every tenth row belongs to program 2, so that program 1's rows are not one contiguous run;
        // one in 10,000 to program 3, whose every page of sales spans many blocks.
        const p = i % 10_000 === 5 ? 3 : i % 10 === 9 ? 2 : 1
        const at = now - (ROWS - i) * 1_000
        customer.run(p, `c${i}`, p, p, 'converted', at)
        sale.run(p, i + 1, `txn_${i}`, 4_900, 'USD', at, attribution, at)
        commission.run(p, i + 1, p, 490, at)
        if (i % 10 === 0) event.run(`evt_${i}`, p, at)
      }
    })()
  }
  // No ANALYZE: the service never runs it, so its plans come from the schema alone.
  db.close()
  return performance.now() - started
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ms = (x: number) => x.toFixed(2)

async function timePages(url: string, route: string, programId = 1) {
  const get = async (query: string) => {
    const response = await fetch(`${url}/api/v1/admin/programs/${programId}/${route}${query}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    if (response.status !== 200) throw new Error(`${route}${query}: ${response.status} ${await response.text()}`)
    return response.json() as Promise<{ data: { id?: number }[]; next_cursor: unknown }>
  }
  const first = await get('?limit=50')
  // A cursor from the middle of the program's ids, and one just above its smallest.
  const middle = Math.floor(ROWS / 2)
  const out = { first: '', middle: '', last: '' }
  for (const [name, query] of [
    ['first', '?limit=50'],
    ['middle', `?limit=50&cursor=${middle}`],
    ['last', '?limit=50&cursor=12'],
  ] as const) {
    const times: number[] = []
    for (let i = 0; i < REPEAT; i++) {
      const t = performance.now()
      await get(query)
      times.push(performance.now() - t)
    }
    out[name] = ms(median(times))
  }
  return { rows: first.data.length, ...out }
}

function timeQuery(db: Database, table: string) {
  // Sales are read by id range, a block at a time (src/db/sale-pages.ts): one block's query here.
  const sql =
    table === 'sales'
      ? 'SELECT * FROM sales WHERE program_id = ? AND id >= ? AND id < ? ORDER BY id DESC LIMIT 51'
      : `SELECT * FROM ${table} WHERE program_id = ? AND id < ? ORDER BY id DESC LIMIT 51`
  const args = table === 'sales' ? [1, Math.floor(ROWS / 2) - 2 ** SALE_BLOCK_BITS, Math.floor(ROWS / 2)] : [1, Math.floor(ROWS / 2)]
  const query = db.prepare(sql)
  const times: number[] = []
  for (let i = 0; i < REPEAT; i++) {
    const t = performance.now()
    query.all(...args)
    times.push(performance.now() - t)
  }
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ')
  return { query_ms: ms(median(times)), plan }
}

try {
  const fillMs = fill()
  console.log(
    `filled ${ROWS.toLocaleString('en')} sales, commissions and customers, ${(ROWS / 10).toLocaleString('en')} events in ${(fillMs / 1000).toFixed(1)} s; file ${(statSync(path).size / 1e6).toFixed(0)} MB`,
  )
  const server = serve(path)
  const reader = new Database(path, { readonly: true })
  console.log('route        | HTTP page ms (median): first  middle  last | query alone ms | plan')
  for (const route of ['sales', 'commissions', 'customers', 'events', 'partners', 'links']) {
    const t = await timePages(server.url, route)
    const table = route === 'events' ? 'processor_events' : route
    const q = timeQuery(reader, table)
    console.log(
      `${route.padEnd(12)} | ${t.first.padStart(27)} ${t.middle.padStart(7)} ${t.last.padStart(5)} | ${q.query_ms.padStart(14)} | ${q.plan}`,
    )
  }
  reader.close()
  for (const programId of [2, 3]) {
    const t = await timePages(server.url, 'sales', programId)
    console.log(
      `sales of ${programId} | ${t.first.padStart(27)} ${t.middle.padStart(7)} ${t.last.padStart(5)} | ${t.rows} rows on the first page`,
    )
  }
  await server.stop()
} finally {
  rmSync(dir, { recursive: true, force: true })
}

/** The service over `path`, quiet, limits raised: the operator API's pages are what is timed. */
function serve(path: string) {
  return startQuiet({ DATABASE_PATH: path, SVC_ADMIN_TOKEN: TOKEN, SVC_RATE_LIMIT_SCALE: '1000' })
}
