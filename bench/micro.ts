/**
 * CPU cost of one request through the whole pipeline, without sockets or load generator (issue 14):
 * `bun bench/micro.ts [flood|click|sale|recurring]`. Calls the app's fetch in-process in waves of 32
 * (so clicks share batches as under load) and prints µs per request, best of 5 rounds: a figure the
 * machine's load moves far less than req/s. MICRO_LOG=1 turns the request log on (issue 36).
 * `recurring` is bench/webhook-sales.ts's shape (issue 35): one key, one attributed customer,
 * `recurring_percent`, so that every sale books a commission. MICRO_ENDPOINT=1 adds one webhook
 * endpoint subscribed to every event (at a closed port), with the pool as busy as under load (it
 * writes deliveries and paces attempts as while many requests are answered), so that the figure
 * is what the events cost the sale path.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/http/app.ts'
import { LOG_HOLD_MS, lineLog } from '../src/log.ts'
import { createPrograms, post, prepareCustomers, visitorIp } from './lib/fixtures.ts'
import { startQuiet } from './lib/in-process.ts'

const shape = process.argv[2] ?? 'flood'
// A recurring sale is a sale of one program's one customer, every one commissioned.
const recurring = shape === 'recurring'
if (recurring) process.env.BENCH_COMMISSION_TYPE = 'recurring_percent'
const kind = recurring ? 'sale' : shape
const TMP = mkdtempSync(join(tmpdir(), 'svc-micro-'))
const ADMIN = `micro-${crypto.randomUUID()}`
const endpoint = process.env.MICRO_ENDPOINT === '1'
const started = startQuiet(
  {
    DATABASE_PATH: join(TMP, 'svc.db'),
    SVC_ADMIN_TOKEN: ADMIN,
    TRUST_PROXY: 'true',
    SVC_RATE_LIMIT_SCALE: kind === 'sale' ? '1000' : '1',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  },
  // Busy from the start (what the pool sees under load: micro calls the app's fetch, past the gate that counts requests).
  endpoint ? { webhookBusyRequests: 0 } : {},
)
// MICRO_LOG=1: the request log on, as users run it (src/log.ts writing to stdout; send it to a file
// or /dev/null: the figures are printed on stderr then).
const logged = process.env.MICRO_LOG === '1'
if (logged) {
  Object.assign(started.deps.config, { logRequests: true })
  // As the server holds it (src/log.ts); MICRO_LOG_HOLD_MS=0 writes at the end of every turn.
  started.deps.log = lineLog(undefined, { holdMs: Number(process.env.MICRO_LOG_HOLD_MS ?? LOG_HOLD_MS) })
}
const say = logged ? console.error : console.log
const { fetch } = createApp(started.deps)
if (process.env.MICRO_CACHE_KB) started.deps.database.client.exec(`PRAGMA cache_size = -${process.env.MICRO_CACHE_KB}`)
if (process.env.MICRO_DROP_TRIGGERS)
  for (const t of ['rollup_sale', 'rollup_commission', 'rollup_customer_converted', 'rollup_click'])
    started.deps.database.client.exec(`DROP TRIGGER ${t}`)
const commitMs: number[] = []
if (process.env.MICRO_COMMITS) {
  const client = started.deps.database.client
  const exec = client.exec.bind(client)
  client.exec = (sql: string) => {
    if (sql !== 'COMMIT') return exec(sql)
    const t = performance.now()
    exec(sql)
    commitMs.push(performance.now() - t)
  }
}
if (process.env.MICRO_NO_CHECKPOINT) started.deps.database.client.exec('PRAGMA wal_autocheckpoint = 0')
try {
  const programs = await createPrograms(started.url, ADMIN, 'm', recurring ? 1 : kind === 'sale' ? 500 : 20, kind === 'sale' ? 1 : 5)
  const links = programs.flatMap((p) => p.shortLinks)
  if (endpoint)
    for (const { programId } of programs)
      await post(
        started.url,
        `/api/v1/admin/programs/${programId}/webhooks`,
        { url: 'http://127.0.0.1:9/' },
        { authorization: `Bearer ${ADMIN}` },
      )
  if (kind === 'sale') await prepareCustomers(started.url, programs, recurring ? 1 : 4, 1_000_000)
  const customers = programs.flatMap((p) => p.customerKeys.map((key) => ({ key, auth: `Bearer ${p.apiKey}` })))
  const body = (n: number) =>
    kind === 'sale'
      ? JSON.stringify({
          transaction_id: `micro-${n}-${Math.random()}`,
          amount_cents: 1999,
          customer_key: customers[n % customers.length].key,
        })
      : JSON.stringify({ affiliate_url: `https://shop.test/?aff=${links[n % links.length]}` })
  let ip = 1
  // Content-Length as a client sends it (a Request built from a string carries none).
  const request = (n: number) => {
    const text = body(n)
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(text.length),
      'x-forwarded-for': kind === 'flood' ? '198.51.100.7' : visitorIp(ip++),
    }
    if (kind === 'sale') headers.authorization = customers[n % customers.length].auth
    return new Request(`${started.url}/api/v1/track/${kind === 'sale' ? 'sale' : 'click'}`, { method: 'POST', body: text, headers })
  }
  // The flood's IP spends its minute first.
  if (kind === 'flood') for (let i = 0; i < 61; i++) await (await fetch(request(i))).arrayBuffer()
  const N = kind === 'flood' ? 100_000 : 20_000
  const rounds: number[] = []
  const users: number[] = []
  for (let round = 0; round < 5; round++) {
    const t0 = process.cpuUsage()
    for (let n = 0; n < N; n += 32) {
      const answers = await Promise.all(Array.from({ length: 32 }, (_, i) => fetch(request(n + i))))
      for (const a of answers) {
        if (a.status !== (kind === 'flood' ? 429 : 200)) throw new Error(`answered ${a.status}`)
        await a.arrayBuffer()
      }
    }
    const used = process.cpuUsage(t0)
    rounds.push((used.user + used.system) / N)
    users.push(used.user / N)
  }
  say(
    `${shape}${logged ? ' (request log on)' : ''}${endpoint ? ' (one endpoint)' : ''}: ${Math.min(...rounds).toFixed(2)} µs CPU per request, ${Math.min(...users).toFixed(2)} of it user (best of 5; all ${rounds.map((r) => r.toFixed(2)).join(', ')})`,
  )
  if (commitMs.length) {
    commitMs.sort((a, b) => a - b)
    const at = (q: number) => commitMs[Math.floor(q * (commitMs.length - 1))].toFixed(2)
    say(
      `COMMIT ms over ${commitMs.length}: p50 ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, p99.9 ${at(0.999)}, max ${at(1)}; over 2 ms: ${commitMs.filter((m) => m > 2).length}`,
    )
  }
} finally {
  await started.stop()
  rmSync(TMP, { recursive: true, force: true })
}
