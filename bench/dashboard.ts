/**
 * How long the dashboard's pages take to render over a large program (issue 13): `bun
 * bench/dashboard.ts` (never run by `npm test`). One program with 50 partners, a million clicks
 * over 90 days and 100,000 sales (customers, sales and commissions; every tenth refunded), seeded
 * through SQL so that the rollup triggers run as they do in production. Each page is rendered
 * through the app's own fetch with a signed-in session; the figure is the median and the slowest
 * of 20 renders after 3 warm-ups. BENCH_DASHBOARD_CLICKS and BENCH_DASHBOARD_SALES change the size.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../src/clock.ts'
import { loadConfig } from '../src/config.ts'
import { openDatabase } from '../src/db/open.ts'
import { createApp } from '../src/http/app.ts'
import { RateLimiter } from '../src/http/pipeline/rate-limit.ts'
import { VisitorCounts } from '../src/tracking/visitor-counts.ts'
import { bunRuntime } from '../src/runtime/bun.ts'

const CLICKS = Number(process.env.BENCH_DASHBOARD_CLICKS ?? 1_000_000)
const SALES = Number(process.env.BENCH_DASHBOARD_SALES ?? 100_000)
const PARTNERS = 50
const DAY = 86_400_000

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-dashboard-'))
try {
  const database = openDatabase(bunRuntime, join(dir, 'svc.db'))
  const { client } = database
  const now = Date.now()
  const seeded = performance.now()
  client.exec(`INSERT INTO accounts (email, created_at) VALUES ('bench@example.test', 0);
INSERT INTO advertisers (account_id, created_at) VALUES (1, 0);
INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, holding_period_days, created_at) VALUES (1, 'bench', 'shop.test', 'percent', 10, 30, 0);
INSERT INTO api_keys (program_id, key_hash, key_prefix, created_at) VALUES (1, 'bench', 'svc_live_benc', 0);`)
  client.exec('BEGIN')
  for (let p = 1; p <= PARTNERS; p++) {
    client.prepare('INSERT INTO partners (program_id, name, created_at) VALUES (1, ?, 0)').run(`Partner ${p}`)
    client.prepare('INSERT INTO links (program_id, partner_id, short_link, created_at) VALUES (1, ?, ?, 0)').run(p, `bench-${p}`)
  }
  const click = client.prepare('INSERT INTO clicks (click_id, program_id, link_id, partner_id, created_at) VALUES (?, 1, ?, ?, ?)')
  for (let i = 0; i < CLICKS; i++) {
    const partner = 1 + (i % PARTNERS)
    click.run(`c${i}`, partner, partner, now - Math.floor((i / CLICKS) * 90 * DAY))
  }
  // The service counts its clicks in daily_counts as it writes them (src/db/tracking-store.ts); rows written here are counted at once.
  client.exec(`INSERT INTO daily_counts (program_id, partner_id, day, test_mode, clicks)
    SELECT program_id, partner_id, created_at / 86400000, test_mode, count(*) FROM clicks GROUP BY 1, 2, 3, 4 ORDER BY 1
    ON CONFLICT (program_id, partner_id, day, test_mode) DO UPDATE SET clicks = clicks + excluded.clicks`)
  const customer = client.prepare(
    "INSERT INTO customers (program_id, customer_key, click_id, partner_id, link_id, status, lead_at, converted_at, created_at) VALUES (1, ?, ?, ?, ?, 'converted', ?, ?, ?)",
  )
  const sale = client.prepare(
    'INSERT INTO sales (program_id, customer_id, transaction_id, amount_cents, currency, occurred_at, attribution, created_at) VALUES (1, ?, ?, 4900, \'USD\', ?, \'{"rule":"first_click"}\', ?)',
  )
  const commission = client.prepare(
    "INSERT INTO commissions (program_id, sale_id, partner_id, kind, amount_cents, currency, created_at) VALUES (1, ?, ?, ?, ?, 'USD', ?)",
  )
  const refund = client.prepare("UPDATE sales SET status = 'refunded' WHERE id = ?")
  for (let i = 1; i <= SALES; i++) {
    const partner = 1 + (i % PARTNERS)
    const at = now - Math.floor((i / SALES) * 90 * DAY)
    customer.run(`k${i}`, `c${i * 10}`, partner, partner, at, at, at)
    sale.run(i, `t${i}`, at, at)
    commission.run(i, partner, 'commission', 490, at)
    if (i % 10 === 0) {
      refund.run(i)
      commission.run(i, partner, 'reversal', -490, at + 1)
    }
  }
  client.exec('COMMIT')
  client.exec('ANALYZE')
  console.log(
    `seeded ${CLICKS.toLocaleString('en')} clicks and ${SALES.toLocaleString('en')} sales in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  )

  const config = loadConfig({ DATABASE_PATH: join(dir, 'svc.db'), SVC_LOG_REQUESTS: 'false' })
  const { fetch } = createApp({
    config,
    clock: systemClock,
    database,
    limiter: new RateLimiter(() => Date.now()),
    visitors: new VisitorCounts(),
    findKey: (token) => database.stores.programs.findKey(token),
    secret: 'bench-secret-0123456789-0123456789',
    trackerSource: '',
    log: () => {},
    firstRun: { code: null },
    mail: { delivery: 'log', baseUrl: '', wake: () => {} },
    webhookPool: { wake: () => {}, attemptNow: async () => {} },
    payoutRails: {},
    payoutSender: { wake: () => {} },
  })
  const owner = await database.writer.run(() =>
    database.stores.webSessions.createWebSession({ kind: 'account', accountId: 1 }, Date.now(), DAY),
  )
  const partner = await database.writer.run(() =>
    database.stores.webSessions.createWebSession({ kind: 'partner', partnerId: 1 }, Date.now(), DAY),
  )

  const pages: [string, string, string][] = [
    ['program overview (30 days)', '/dashboard/programs/1', owner],
    ['program overview (90 days)', '/dashboard/programs/1?days=90', owner],
    ['programs list', '/dashboard', owner],
    ['partners', '/dashboard/programs/1/partners', owner],
    ['sales', '/dashboard/programs/1/sales', owner],
    ['commissions', '/dashboard/programs/1/commissions', owner],
    ['payouts', '/dashboard/programs/1/payouts', owner],
    ['partner portal', '/partner', partner],
  ]
  for (const [name, path, cookie] of pages) {
    const render = async () => {
      const started = performance.now()
      const response = await fetch(new Request(`http://127.0.0.1${path}`, { headers: { cookie: `svc_session=${cookie}` } }))
      const body = await response.text()
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.slice(0, 200)}`)
      return performance.now() - started
    }
    for (let i = 0; i < 3; i++) await render()
    const times: number[] = []
    for (let i = 0; i < 20; i++) times.push(await render())
    times.sort((a, b) => a - b)
    console.log(`${name.padEnd(28)} median ${times[10].toFixed(2)} ms, slowest ${times[19].toFixed(2)} ms`)
  }
  database.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
