/**
 * The benchmark of issue 3: `npm run bench` (never run by `npm test`).
 *
 * In one run, all on 127.0.0.1: the bare SQLite ceilings (one commit per request, group commit on
 * Bun.serve and behind a bare Elysia route; synchronous FULL and NORMAL) and a bare Elysia route,
 * then the real service started as a user would (`bun src/main.ts` with its environment) for
 * clicks from many visitors, sales over many programs' keys, and a 429 flood from one IP. Prints requests/s, p50, p99, non-2xx answers, ratios
 * to the ceilings, resident memory, the targets, and row-count checks of the database afterwards.
 *
 * Settings (environment): BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (32),
 * BENCH_NORMAL (1: also the synchronous=NORMAL ceilings), BENCH_LOGGING (1: also clicks with
 * SVC_LOG_REQUESTS on), BENCH_SALE_PROGRAMS (500), BENCH_SALE_CUSTOMERS (4 per program),
 * BENCH_CPU_PROF (a folder: profile the service with bun --cpu-prof --cpu-prof-md), BENCH_ONLY (a
 * comma list of parts to run: baselines, click (with the flood), sale, log; all by default),
 * BENCH_SERVICE_MAIN (the service entry point; default src/main.ts of this checkout),
 * BENCH_WEBHOOKS (1: every program gets one webhook endpoint subscribed to every event type, posting
 * to a receiver in this process; `one`: only the first program has one; the sale run then reports
 * delivery throughput and lag, issue 25).
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createPrograms, post, prepareCustomers, visitorIp, type ProgramFixture } from './lib/fixtures.ts'
import { generator, type LoadResult, type Shape } from './lib/load.ts'
import { runFolder, rssMb, stopAll, stopChild } from './lib/proc.ts'
import { runner } from './lib/runner.ts'
import { pct, printTable, ratio, type Row } from './lib/report.ts'
import { startBenchReceiver } from './lib/receiver.ts'
import { checkClicks, checkSales, type Check } from './lib/verify.ts'

const env = process.env
const int = (name: string, fallback: number, max: number) => Math.min(max, Math.max(0, Math.floor(Number(env[name] ?? fallback) || 0)))
const SECONDS = int('BENCH_SECONDS', 10, 120) || 10
const WARMUP = int('BENCH_WARMUP_SECONDS', 2, 30)
const CONNECTIONS = int('BENCH_CONNECTIONS', 32, 1024) || 32
const NORMAL = env.BENCH_NORMAL !== '0'
const LOGGING = env.BENCH_LOGGING !== '0'
const SALE_PROGRAMS = int('BENCH_SALE_PROGRAMS', 500, 5000) || 500
const SALE_CUSTOMERS = int('BENCH_SALE_CUSTOMERS', 4, 50) || 4
const CLICK_PROGRAMS = int('BENCH_CLICK_PROGRAMS', 20, 100) || 20
const CPU_PROF = env.BENCH_CPU_PROF || null
/** The service's entry point; another checkout's src/main.ts can be compared on the same machine. */
const SERVICE_MAIN = env.BENCH_SERVICE_MAIN || join(import.meta.dir, '..', 'src/main.ts')
const ONLY = new Set((env.BENCH_ONLY || 'baselines,click,sale,log').split(',').map((part) => part.trim()))
/** Sale keys get docs/api.md's 120/min each; the sale server's limits are scaled so a fast run cannot exhaust them (at most 60,000 sales/s assumed). */
const WEBHOOKS = env.BENCH_WEBHOOKS === '1' || env.BENCH_WEBHOOKS === 'one'
const SALE_SCALE = Math.max(1, Math.ceil((60_000 * (SECONDS + WARMUP + 10)) / (120 * SALE_PROGRAMS)))

/** The receiver every program's endpoint posts to when BENCH_WEBHOOKS=1. */
const receiver = WEBHOOKS ? await startBenchReceiver() : null

/** BENCH_WEBHOOKS=1: one endpoint per program, subscribed to every event type. */
async function subscribe(base: string, programs: ProgramFixture[]) {
  if (!receiver) return
  for (const program of env.BENCH_WEBHOOKS === 'one' ? programs.slice(0, 1) : programs) {
    await post(
      base,
      `/api/v1/admin/programs/${program.programId}/webhooks`,
      { url: receiver.url },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    )
  }
}

const TMP = runFolder('svc-bench-')
const ADMIN_TOKEN = `bench-admin-${crypto.randomUUID()}`
const RUN = Date.now().toString(36)

// Everything started here dies with the run: normal end, error, Ctrl-C, or the watchdog.
const budgetMs = (SECONDS + WARMUP) * 1000 * 12 + 240_000
const watchdog = setTimeout(() => {
  console.error(`bench: watchdog after ${budgetMs / 1000} s, stopping`)
  process.exit(1) // the exit handler of runFolder kills the children and removes the folder
}, budgetMs)

const {
  measure,
  baseline,
  startService: startWith,
} = runner({
  seconds: SECONDS,
  warmup: WARMUP,
  connections: CONNECTIONS,
  tmp: TMP,
  adminToken: ADMIN_TOKEN,
  cpuProf: CPU_PROF,
  serviceMain: SERVICE_MAIN,
})
const startService = (name: string, extra: Record<string, string>) =>
  startWith(name, { ...(WEBHOOKS ? { WEBHOOKS_ALLOW_PRIVATE: 'true' } : {}), ...extra })

const saleLikeBody: Shape = {
  method: 'POST',
  path: '/',
  variants: [{ body: JSON.stringify({ transaction_id: `bench-${RUN}-{n}`, amount_cents: 1999, customer_key: 'c1' }) }],
}

/** Requests that may be unanswered when `runs` timed runs (warm-ups included) stop. */
const inFlight = (runs: number) => CONNECTIONS * (WARMUP > 0 ? runs : Math.ceil(runs / 2))

const rows: Row[] = []
const checks: Check[] = []
let ipCounter = 1

/** A click shape: links in turn, each request from a new visitor IP. */
const clickShape = (links: string[]): Shape => ({
  method: 'POST',
  path: '/api/v1/track/click',
  newVisitorEachRequest: true,
  variants: links.map((link) => ({ body: JSON.stringify({ affiliate_url: `https://shop.test/?aff=${link}` }) })),
})

interface Ceilings {
  commit: LoadResult | null
  group: LoadResult | null
  /** Issue 14's like-for-like ceiling: group commit at FULL behind a bare Elysia route; the targets are judged on it. */
  groupElysia: LoadResult | null
  elysia: LoadResult | null
}

/** The endpoint's share of each FULL ceiling. */
const ceilingRatios = (result: LoadResult, ceilings: Ceilings) =>
  `${pct(ratio(result, ceilings.commit))} of commit, ${pct(ratio(result, ceilings.group))} of group, ${pct(ratio(result, ceilings.groupElysia))} of Elysia group`

async function clickAndFlood(ceilings: Ceilings) {
  const { child, dbPath } = await startService('svc-click', {})
  try {
    const programs = await createPrograms(child.url, ADMIN_TOKEN, `c${RUN}`, CLICK_PROGRAMS, Math.ceil(100 / CLICK_PROGRAMS))
    await subscribe(child.url, programs)
    const links = programs.flatMap((p) => p.shortLinks)
    const probe = await post(
      child.url,
      '/api/v1/track/click',
      { affiliate_url: `https://shop.test/?aff=${links[0]}` },
      { 'x-forwarded-for': visitorIp(ipCounter++) },
    )
    let clicked = probe.status === 200 ? 1 : 0
    if (probe.status !== 200) {
      rows.push({ name: 'svc click', result: null, skipped: `click answered ${probe.status} ${JSON.stringify(probe.json).slice(0, 60)}` })
    } else {
      const click = await measure(child, clickShape(links))
      clicked += click.warm2xx + click.main.ok2xx
      rows.push({
        name: 'svc click',
        result: click.main,
        rssMb: rssMb(child),
        ratios: ceilingRatios(click.main, ceilings),
        target: '≥ 80% of Elysia group, p99 ≤ 2× its p99 and < 5 ms',
        pass: ceilings.groupElysia
          ? ratio(click.main, ceilings.groupElysia) >= 0.8 && click.main.p99 <= 2 * ceilings.groupElysia.p99 && click.main.p99 < 5
          : null,
      })
    }

    // The flood's IP first uses its 60 clicks of the minute, so every flood request is refused.
    // The limit refuses before routing, so the flood is measured even before the click route exists.
    const floodIp = '198.51.100.7'
    const floodBody = JSON.stringify({ affiliate_url: `https://shop.test/?aff=${links[0]}` })
    let burned = 0
    let burnedOk = 0
    for (let i = 0; i < 61; i++) {
      const { status } = await post(child.url, '/api/v1/track/click', JSON.parse(floodBody), { 'x-forwarded-for': floodIp })
      if (status !== 429) burned++
      if (status === 200) burnedOk++
    }
    const flood = await measure(child, {
      method: 'POST',
      path: '/api/v1/track/click',
      headers: { 'x-forwarded-for': floodIp },
      variants: [{ body: floodBody }],
    })
    const floodRatio = ratio(flood.main, ceilings.elysia)
    // wrk counts 4xx/5xx as one figure; the row check after the run shows no flood request was recorded.
    const all429 =
      flood.main.ok2xx === 0 &&
      flood.main.non2xx === flood.main.requests &&
      (flood.main.generator === 'wrk' || flood.main.statuses['429'] === flood.main.requests)
    rows.push({
      name: 'svc 429 flood',
      result: flood.main,
      rssMb: rssMb(child),
      ratios: `${pct(floodRatio)} of bare Elysia`,
      target: '≥ 90% of bare Elysia, all 429',
      pass: Number.isFinite(floodRatio) ? floodRatio >= 0.9 && all429 : null,
    })
    rows.push({ name: 'svc RSS after click + flood', result: null, rssMb: rssMb(child), target: '< 150 MB' })
    await stopChild(child)
    checks.push({ name: 'flood: 60 clicks of the minute allowed, then refused', ok: burned === 60, detail: `${burned} of 61 allowed` })
    checks.push(...checkClicks(dbPath, clicked + burnedOk + flood.warm2xx + flood.main.ok2xx, inFlight(probe.status === 200 ? 4 : 2)))
  } finally {
    await stopChild(child)
  }
}

async function clickWithLogging(plain: LoadResult | null) {
  const { child, dbPath } = await startService('svc-click-log', { SVC_LOG_REQUESTS: 'true' })
  try {
    const programs = await createPrograms(child.url, ADMIN_TOKEN, `l${RUN}`, 5, 5)
    const links = programs.flatMap((p) => p.shortLinks)
    const probe = await post(
      child.url,
      '/api/v1/track/click',
      { affiliate_url: `https://shop.test/?aff=${links[0]}` },
      { 'x-forwarded-for': visitorIp(ipCounter++) },
    )
    if (probe.status !== 200) return
    const click = await measure(child, clickShape(links))
    const rss = rssMb(child)
    await stopChild(child)
    const logMb = statSync(child.logPath).size / 1048576
    rows.push({
      name: 'svc click, request log on',
      result: click.main,
      rssMb: rss,
      ratios: `${pct(ratio(click.main, plain))} of log off; ${logMb.toFixed(0)} MB of log`,
      target: 'cost of SVC_LOG_REQUESTS',
    })
    checks.push(...checkClicks(dbPath, 1 + click.warm2xx + click.main.ok2xx, inFlight(2)))
  } finally {
    await stopChild(child)
  }
}

async function sales(ceilings: Ceilings) {
  const { child, dbPath } = await startService('svc-sale', { SVC_RATE_LIMIT_SCALE: String(SALE_SCALE) })
  try {
    const programs = await createPrograms(child.url, ADMIN_TOKEN, `s${RUN}`, SALE_PROGRAMS, 1)
    await subscribe(child.url, programs)
    const probe = await post(
      child.url,
      '/api/v1/track/sale',
      { transaction_id: 'probe', amount_cents: 1, customer_key: 'nobody' },
      { authorization: `Bearer ${programs[0].apiKey}` },
    )
    if (probe.status === 404 && !probe.json?.error?.code) {
      rows.push({ name: 'svc sale', result: null, skipped: 'POST /api/v1/track/sale not found' })
      return
    }
    const started = Date.now()
    let prepared: { clicks: number; leads: number }
    try {
      prepared = await prepareCustomers(child.url, programs, SALE_CUSTOMERS, 5_000_000)
    } catch (error) {
      rows.push({ name: 'svc sale', result: null, skipped: String((error as Error).message).slice(0, 70) })
      return
    }
    console.error(`  prepared ${prepared.clicks} clicks and ${prepared.leads} leads in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    // Programs in turn, then each program's customers in turn; every sale its own transaction_id.
    const variants = Array.from({ length: programs.length * SALE_CUSTOMERS }, (_, i) => {
      const program: ProgramFixture = programs[i % programs.length]
      const customerKey = program.customerKeys[Math.floor(i / programs.length) % program.customerKeys.length]
      return {
        body: JSON.stringify({ transaction_id: `bench-${RUN}-s{n}`, amount_cents: 1000 + (i % 5000), customer_key: customerKey }),
        headers: { authorization: `Bearer ${program.apiKey}` },
      }
    })
    const shape: Shape = { method: 'POST', path: '/api/v1/track/sale', variants }
    const before = receiver?.count ?? 0
    const sale = await measure(child, shape)
    if (receiver) {
      // Every sale made an event (sale.created; the first of each customer also commission.created):
      // wait until the receiver has them all, or 60 s, then report its figures.
      const made = sale.warm2xx + sale.main.ok2xx
      const expected = env.BENCH_WEBHOOKS === 'one' ? Math.floor(made / SALE_PROGRAMS) : made
      for (const deadline = Date.now() + 90_000; receiver.count - before < expected && Date.now() < deadline; ) await Bun.sleep(200)
      const f = receiver.figures()
      console.error(
        `  webhooks: ${f.delivered} deliveries (${made} sales made), ${Math.round(f.perSecond)} events/s at the receiver, lag from commit p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms`,
      )
    }
    rows.push({
      name: 'svc sale',
      result: sale.main,
      rssMb: rssMb(child),
      ratios: ceilingRatios(sale.main, ceilings),
      target: '≥ 50% of Elysia group, p99 < 5 ms',
      pass: ceilings.groupElysia ? ratio(sale.main, ceilings.groupElysia) >= 0.5 && sale.main.p99 < 5 : null,
    })
    await stopChild(child)
    checks.push(...checkSales(dbPath, sale.warm2xx + sale.main.ok2xx, inFlight(2), prepared.leads))
  } finally {
    await stopChild(child)
  }
}

/** The 1-minute load average: the figures mean little when other work shares the cores. */
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])

async function main() {
  const loadBefore = loadAverage()
  if (loadBefore > 1)
    console.error(`bench: warning, load average ${loadBefore} before the run: other processes share the cores and will lower the figures`)
  console.error(
    `bench: ${generator} load, ${SECONDS} s runs after ${WARMUP} s warm-up, ${CONNECTIONS} connections, bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, files in ${TMP}`,
  )
  const baselines = ONLY.has('baselines')
  if (baselines) console.error('baselines (bench/baseline-serve.ts):')
  const commit = baselines ? await baseline('sqlite-commit-FULL', 'commit', 'FULL', saleLikeBody) : null
  const group = baselines ? await baseline('sqlite-group-FULL', 'group', 'FULL', saleLikeBody) : null
  const groupElysia = baselines ? await baseline('sqlite-group-elysia-FULL', 'group-elysia', 'FULL', saleLikeBody) : null
  const normal =
    baselines && NORMAL
      ? {
          commit: await baseline('sqlite-commit-NORMAL', 'commit', 'NORMAL', saleLikeBody),
          group: await baseline('sqlite-group-NORMAL', 'group', 'NORMAL', saleLikeBody),
        }
      : null
  // Same request as the flood's (fixed, so that the load generator costs the same for both).
  const floodLike: Shape = {
    method: 'POST',
    path: '/api/v1/track/click',
    headers: { 'x-forwarded-for': '198.51.100.7' },
    variants: [{ body: '{"affiliate_url":"https://shop.test/?aff=bench-flood"}' }],
  }
  const elysia = baselines ? await baseline('elysia-bare', 'elysia', 'FULL', floodLike) : null
  if (baselines) {
    rows.push(
      { name: 'ceiling: commit per request, FULL', result: commit },
      { name: 'ceiling: group commit, FULL', result: group },
      { name: 'ceiling: group commit, FULL, Elysia', result: groupElysia },
    )
    if (normal)
      rows.push(
        { name: 'ceiling: commit per request, NORMAL', result: normal.commit },
        { name: 'ceiling: group commit, NORMAL', result: normal.group },
      )
    rows.push({ name: 'bare Elysia JSON route', result: elysia })
  }

  console.error('service (bun src/main.ts):')
  const ceilings: Ceilings = { commit, group, groupElysia, elysia }
  if (ONLY.has('click')) await clickAndFlood(ceilings)
  if (ONLY.has('sale')) await sales(ceilings)
  if (LOGGING && ONLY.has('log')) await clickWithLogging(rows.find((r) => r.name === 'svc click')?.result ?? null)

  const rssRows = rows.filter((r) => r.name.startsWith('svc') && r.rssMb != null && r.target === '< 150 MB')
  for (const r of rssRows) r.pass = (r.rssMb as number) < 150
  console.log(
    `\nsvc benchmark, ${new Date().toISOString()}, bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, load average ${loadBefore} before and ${loadAverage()} after`,
  )
  console.log(
    `load by ${generator}, ${SECONDS} s per run after ${WARMUP} s warm-up, ${CONNECTIONS} connections; sales over ${SALE_PROGRAMS} keys with SVC_RATE_LIMIT_SCALE=${SALE_SCALE}\n`,
  )
  printTable(rows)
  console.log('\ncorrectness after load:')
  for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`)
  return checks.every((c) => c.ok)
}

try {
  const ok = await main()
  await stopAll()
  await receiver?.close()
  clearTimeout(watchdog)
  process.exitCode = ok ? 0 : 1
} catch (error) {
  console.error('bench failed:', error)
  await stopAll()
  await receiver?.close()
  clearTimeout(watchdog)
  process.exitCode = 1
}
