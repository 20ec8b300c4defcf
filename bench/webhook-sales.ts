/**
 * Issue 35's shape: what one webhook endpoint costs commissioned sales. `bun bench/webhook-sales.ts`
 * (never run by `npm test`).
 *
 * In one run: the FULL group-commit ceilings (bench/baseline-serve.ts `group` and `group-elysia`),
 * then the service twice over a fresh database, each time one program (one key), one partner, one
 * attributed customer (a click and a server-mode lead) and `recurring_percent`, so that every sale
 * books a commission (its ledger rows, chain link and fraud check): first without an endpoint,
 * then with one endpoint subscribed to every event type at a receiver in this process. Prints
 * req/s, p50/p99, CPU per sale, the ratios to the ceilings and to the run without an endpoint,
 * and how long the deliveries' backlog took to drain after the load (from the end of the
 * measured run until no delivery is pending).
 *
 * Rounds alternate which run goes first. Settings: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (32), BENCH_ROUNDS (2: pairs
 * of runs without and with the endpoint, each ratio printed and their median), BENCH_CPU_PROF (a
 * folder: profile both service runs), BENCH_SERVICE_MAIN (another checkout's src/main.ts), BENCH_NO_DRAIN (1:
 * stop the service at the end of the load, so that a profile holds the load alone).
 */
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createPrograms, post, prepareCustomers } from './lib/fixtures.ts'
import { generator, type LoadResult, type Shape } from './lib/load.ts'
import { rssMb, runFolder, stopAll, stopChild } from './lib/proc.ts'
import { startBenchReceiver } from './lib/receiver.ts'
import { pct, printTable, ratio, type Row } from './lib/report.ts'
import { runner } from './lib/runner.ts'

const env = process.env
const int = (name: string, fallback: number) => Math.max(0, Math.floor(Number(env[name] ?? fallback) || 0))
const SECONDS = int('BENCH_SECONDS', 10) || 10
const WARMUP = int('BENCH_WARMUP_SECONDS', 2)
const ROUNDS = int('BENCH_ROUNDS', 2) || 2
const TMP = runFolder('svc-bench-hooks-')
const ADMIN_TOKEN = `bench-admin-${crypto.randomUUID()}`
const RUN = Date.now().toString(36)
// One key gets docs/api.md's 120 sales a minute: scaled so that a fast run cannot exhaust it.
const SCALE = Math.ceil((60_000 * (SECONDS + WARMUP + 10)) / 120)
const { measure, baseline, startService } = runner({
  seconds: SECONDS,
  warmup: WARMUP,
  connections: int('BENCH_CONNECTIONS', 32) || 32,
  tmp: TMP,
  adminToken: ADMIN_TOKEN,
  cpuProf: env.BENCH_CPU_PROF || null,
  serviceMain: env.BENCH_SERVICE_MAIN || join(import.meta.dir, '..', 'src/main.ts'),
})
const watchdog = setTimeout(() => process.exit(1), (SECONDS + WARMUP) * 8_000 + 300_000)

const pending = (dbPath: string) => {
  const db = new Database(dbPath, { readonly: true })
  try {
    // Events whose deliveries are not written yet (src/db/tables/outbox.ts) wait too (none before that change).
    const unwritten = db.query(
      "SELECT count(*) AS n FROM webhook_events WHERE id > (SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'webhook_deliveries_written')",
    )
    return (
      (db.query("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get() as { n: number }).n +
      (unwritten.get() as { n: number }).n
    )
  } finally {
    db.close()
  }
}

/** Commissioned sales on one key, with or without one endpoint; the drain time when there is one. */
async function commissionedSales(name: string, receiverUrl: string | null) {
  const { child, dbPath } = await startService(name, { SVC_RATE_LIMIT_SCALE: String(SCALE), WEBHOOKS_ALLOW_PRIVATE: 'true' })
  try {
    process.env.BENCH_COMMISSION_TYPE = 'recurring_percent'
    const [program] = await createPrograms(child.url, ADMIN_TOKEN, `${name}${RUN}`, 1, 1)
    if (receiverUrl)
      await post(
        child.url,
        `/api/v1/admin/programs/${program.programId}/webhooks`,
        { url: receiverUrl },
        { authorization: `Bearer ${ADMIN_TOKEN}` },
      )
    await prepareCustomers(child.url, [program], 1, 7_000_000)
    const shape: Shape = {
      method: 'POST',
      path: '/api/v1/track/sale',
      variants: [
        {
          body: JSON.stringify({ transaction_id: `bench-${RUN}-{n}`, amount_cents: 1999, customer_key: program.customerKeys[0] }),
          headers: { authorization: `Bearer ${program.apiKey}` },
        },
      ],
    }
    const { main } = await measure(child, shape)
    const loadEnded = Date.now()
    let drainMs: number | null = null
    if (receiverUrl && !env.BENCH_NO_DRAIN) {
      while (pending(dbPath) > 0 && Date.now() - loadEnded < 600_000) await Bun.sleep(100)
      drainMs = Date.now() - loadEnded
    }
    const db = new Database(dbPath, { readonly: true })
    const deliveries = (db.query('SELECT count(*) AS n FROM webhook_deliveries').get() as { n: number }).n
    const sales = (db.query('SELECT count(*) AS n FROM sales').get() as { n: number }).n
    const commissions = (db.query("SELECT count(*) AS n FROM commissions WHERE kind = 'commission'").get() as { n: number }).n
    db.close()
    return { main, drainMs, deliveries, sales, commissions, rss: rssMb(child) }
  } finally {
    await stopChild(child)
  }
}

/** The 1-minute load average: the figures mean little when other work shares the cores. */
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])

async function main() {
  const loadBefore = loadAverage()
  console.error(`bench: ${generator} load, ${SECONDS} s runs after ${WARMUP} s warm-up, ${ROUNDS} rounds, files in ${TMP}`)
  const saleLike: Shape = {
    method: 'POST',
    path: '/',
    variants: [{ body: JSON.stringify({ transaction_id: `bench-${RUN}-{n}`, amount_cents: 1999, customer_key: 'c1' }) }],
  }
  const group = await baseline('sqlite-group-FULL', 'group', 'FULL', saleLike)
  const groupElysia = await baseline('sqlite-group-elysia-FULL', 'group-elysia', 'FULL', saleLike)
  const ceilings = (r: LoadResult) => `${pct(ratio(r, group))} of group, ${pct(ratio(r, groupElysia))} of Elysia group`
  const rows: Row[] = [
    { name: 'ceiling: group commit, FULL', result: group },
    { name: 'ceiling: group commit, FULL, Elysia', result: groupElysia },
  ]
  const notes: string[] = []
  const ratios: number[] = []
  // Rounds of (no endpoint, one endpoint), each on a fresh server, the backlog drained before the
  // next run: a neighbour's load that comes and goes moves one round, not the verdict. The order
  // alternates (odd rounds without the endpoint first), so that a machine that slows down through a
  // run weighs on both sides alike.
  for (let round = 1; round <= ROUNDS; round++) {
    const receiver = await startBenchReceiver()
    const runBare = () => commissionedSales(`svc-sales-bare-${round}`, null)
    const runHooked = () => commissionedSales(`svc-sales-hook-${round}`, receiver.url)
    const bareFirst = round % 2 === 1 ? await runBare() : null
    const hooked = await runHooked()
    const without = bareFirst ?? (await runBare())
    await receiver.close()
    ratios.push(ratio(hooked.main, without.main))
    rows.push(
      {
        name: `round ${round}: commissioned sales, no endpoint${bareFirst ? '' : ' (run second)'}`,
        result: without.main,
        rssMb: without.rss,
        ratios: ceilings(without.main),
        target: '≥ 30% of the FULL ceiling, p99 < 10 ms',
        pass: ratio(without.main, group) >= 0.3 && ratio(without.main, groupElysia) >= 0.3 && without.main.p99 < 10,
      },
      {
        name: `round ${round}: commissioned sales, one endpoint`,
        result: hooked.main,
        rssMb: hooked.rss,
        ratios: `${ceilings(hooked.main)}; ${pct(ratio(hooked.main, without.main))} of no endpoint`,
        target: '≥ 85% of no endpoint, p99 < 10 ms',
        pass: ratio(hooked.main, without.main) >= 0.85 && hooked.main.p99 < 10,
      },
    )
    const f = receiver.figures()
    notes.push(
      `round ${round} backlog: ${hooked.deliveries} deliveries for ${hooked.sales} sales (${hooked.commissions} commissions); drained ${((hooked.drainMs ?? 0) / 1000).toFixed(1)} s after the load; ${Math.round(f.perSecond)} events/s at the receiver; lag from commit p50 ${f.p50} ms, p99 ${f.p99} ms`,
    )
  }
  console.log(
    `\nsvc webhook sales, ${new Date().toISOString()}, bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, load ${generator}, load average ${loadBefore} before and ${loadAverage()} after`,
  )
  printTable(rows)
  console.log('')
  for (const note of notes) console.log(note)
  const sorted = [...ratios].sort((x, y) => x - y)
  console.log(
    `one endpoint / no endpoint by round: ${ratios.map(pct).join(', ')}; median ${pct(sorted[Math.floor((sorted.length - 1) / 2)]!)}`,
  )
}

try {
  await main()
} finally {
  await stopAll()
  clearTimeout(watchdog)
}
