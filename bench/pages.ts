/**
 * Pages written per COMMIT, counted rather than timed (issue 14): figures that a shared machine's
 * load does not move. `bun bench/pages.ts` (never run by `npm test`).
 *
 * The service runs in this process over a temporary SQLite file with its own checkpoints off, so
 * every frame a batch appends stays in the -wal file. Clicks (over BENCH_CLICK_PROGRAMS programs'
 * 100 links) and then sales (over BENCH_SALE_PROGRAMS programs, BENCH_SALE_CUSTOMERS prepared
 * customers each) are sent in waves of BENCH_CONNECTIONS concurrent requests; after each part the
 * -wal file's frames are read and named by the b-tree their page belongs to (SQLite's dbstat).
 * Prints, per part: commits, units per commit, frames per commit and per unit, the b-trees'
 * shares, and the CPU time of the whole process (client included) per request.
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPrograms, prepareCustomers, visitorIp } from './lib/fixtures.ts'
import { startQuiet } from './lib/in-process.ts'

const env = process.env
const num = (name: string, fallback: number) => Number(env[name] ?? fallback) || fallback
const WAVE = num('BENCH_CONNECTIONS', 32)
const CLICKS = num('BENCH_PAGES_CLICKS', 20_000)
const SALES = num('BENCH_PAGES_SALES', 10_000)
const CLICK_PROGRAMS = num('BENCH_CLICK_PROGRAMS', 20)
const SALE_PROGRAMS = num('BENCH_SALE_PROGRAMS', 500)
const SALE_CUSTOMERS = num('BENCH_SALE_CUSTOMERS', 4)

const TMP = mkdtempSync(join(tmpdir(), 'svc-pages-'))
const dbPath = join(TMP, 'svc.db')
const ADMIN = `pages-${crypto.randomUUID()}`
const started = startQuiet({ DATABASE_PATH: dbPath, SVC_ADMIN_TOKEN: ADMIN, TRUST_PROXY: 'true', SVC_RATE_LIMIT_SCALE: '1000' })
const { client, writer } = started.deps.database
client.exec('PRAGMA wal_autocheckpoint = 0')
const pageSize = (() => {
  const reader = new Database(dbPath, { readonly: true })
  const size = Number((reader.query('PRAGMA page_size').get() as { page_size: number }).page_size)
  reader.close()
  return size
})()

/** Empties the -wal file (every frame so far goes into the database). */
const checkpoint = () => client.exec('PRAGMA wal_checkpoint(TRUNCATE)')

/** Page numbers of the -wal file's frames of the current generation (its header's salts). */
function walPages(): number[] {
  const wal = readFileSync(`${dbPath}-wal`)
  if (wal.length < 32) return []
  const salt1 = wal.readUInt32BE(16)
  const salt2 = wal.readUInt32BE(20)
  const pages: number[] = []
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break
    pages.push(wal.readUInt32BE(at))
  }
  return pages
}

/** The b-tree (table or index) each page of the database file belongs to. */
function pageOwners(): Map<number, string> {
  const reader = new Database(dbPath, { readonly: true })
  const owners = new Map<number, string>()
  for (const row of reader.query('SELECT name, pageno FROM dbstat').all() as { name: string; pageno: number }[])
    owners.set(row.pageno, row.name)
  reader.close()
  return owners
}

async function part(name: string, requests: number, send: (n: number) => Promise<void>) {
  checkpoint()
  const before = { ...writer.stats }
  const cpu = process.cpuUsage()
  for (let n = 0; n < requests; n += WAVE) {
    await Promise.all(Array.from({ length: Math.min(WAVE, requests - n) }, (_, i) => send(n + i)))
  }
  const used = process.cpuUsage(cpu)
  const pages = walPages()
  checkpoint()
  const owners = pageOwners()
  const commits = writer.stats.batches - before.batches
  const units = writer.stats.units - before.units
  const byTree = new Map<string, number>()
  for (const page of pages) {
    const owner = owners.get(page) ?? '(freelist or new)'
    byTree.set(owner, (byTree.get(owner) ?? 0) + 1)
  }
  const shares = [...byTree]
    .sort((a, b) => b[1] - a[1])
    .map(([tree, count]) => `${tree} ${(count / commits).toFixed(2)}`)
    .join(', ')
  console.log(
    `${name}: ${requests} requests, ${commits} commits, ${(units / commits).toFixed(1)} units/commit, ` +
      `${(pages.length / commits).toFixed(2)} frames/commit, ${(pages.length / units).toFixed(3)} frames/unit, ` +
      `${((used.user + used.system) / requests).toFixed(1)} µs CPU/request (this process)`,
  )
  console.log(`  frames per commit by b-tree: ${shares}`)
}

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<void> {
  const response = await fetch(started.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  await response.arrayBuffer()
  if (response.status !== 200 && response.status !== 201) throw new Error(`${path} answered ${response.status}`)
}

try {
  const tag = Date.now().toString(36)
  const clickPrograms = await createPrograms(started.url, ADMIN, `c${tag}`, CLICK_PROGRAMS, Math.ceil(100 / CLICK_PROGRAMS))
  const links = clickPrograms.flatMap((p) => p.shortLinks)
  let ip = 1
  await part('click', CLICKS, (n) =>
    post(
      '/api/v1/track/click',
      { affiliate_url: `https://shop.test/?aff=${links[n % links.length]}` },
      { 'x-forwarded-for': visitorIp(ip++) },
    ),
  )

  const salePrograms = await createPrograms(started.url, ADMIN, `s${tag}`, SALE_PROGRAMS, 1)
  await prepareCustomers(started.url, salePrograms, SALE_CUSTOMERS, 1_000_000)
  const customers = salePrograms.flatMap((p) => p.customerKeys.map((key) => ({ key, apiKey: p.apiKey })))
  await part('sale', SALES, (n) => {
    const c = customers[(n * 7919) % customers.length]
    return post(
      '/api/v1/track/sale',
      { customer_key: c.key, transaction_id: `t${tag}-${n}`, amount_cents: 1999, currency: 'USD' },
      { authorization: `Bearer ${c.apiKey}` },
    )
  })
} finally {
  await started.stop()
  rmSync(TMP, { recursive: true, force: true })
}
