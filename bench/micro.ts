/**
 * CPU cost of one request through the whole pipeline, without sockets or load generator (issue 14):
 * `bun bench/micro.ts [flood|click|sale]`. Calls the app's fetch in-process in waves of 32 (so
 * clicks share batches as under load) and prints µs per request, best of 5 rounds: a figure the
 * machine's load moves far less than req/s.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../src/clock'
import { loadConfig } from '../src/config'
import { createApp } from '../src/http/app'
import { bunRuntime } from '../src/runtime/bun'
import { startServer } from '../src/server'
import { trackerSource } from '../src/tracker-source'
import { createPrograms, visitorIp } from './lib/fixtures'

const kind = process.argv[2] ?? 'flood'
const TMP = mkdtempSync(join(tmpdir(), 'svc-micro-'))
const ADMIN = `micro-${crypto.randomUUID()}`
const started = startServer({
  config: loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(TMP, 'svc.db'), SVC_ADMIN_TOKEN: ADMIN, TRUST_PROXY: 'true', SVC_LOG_REQUESTS: 'false' }),
  clock: systemClock, runtime: bunRuntime, trackerSource, log: () => {},
})
const { fetch } = createApp(started.deps)
if (process.env.MICRO_NO_CHECKPOINT) started.deps.database.client.exec('PRAGMA wal_autocheckpoint = 0')
try {
  const programs = await createPrograms(started.url, ADMIN, 'm', 20, 5)
  const links = programs.flatMap((p) => p.shortLinks)
  const body = (n: number) => JSON.stringify({ affiliate_url: `https://shop.test/?aff=${links[n % links.length]}` })
  let ip = 1
  // Content-Length as a client sends it (a Request built from a string carries none).
  const request = (n: number) => {
    const text = body(n)
    return new Request(`${started.url}/api/v1/track/click`, {
      method: 'POST', body: text,
      headers: { 'content-type': 'application/json', 'content-length': String(text.length), 'x-forwarded-for': kind === 'flood' ? '198.51.100.7' : visitorIp(ip++) },
    })
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
  console.log(`${kind}: ${Math.min(...rounds).toFixed(2)} µs CPU per request, ${Math.min(...users).toFixed(2)} of it user (best of 5; all ${rounds.map((r) => r.toFixed(2)).join(', ')})`)
} finally {
  await started.stop()
  rmSync(TMP, { recursive: true, force: true })
}
