/**
 * The abuse scenario of issue 9: `npm run bench:abuse` (never run by `npm test`).
 *
 * Starts the service as a user would (`bun src/main.ts`), measures GET /healthz latency and the
 * resident memory at rest, then runs three attacks from 127.0.0.1, one after the other, each for
 * a bounded time or count, while a probe keeps timing /healthz:
 *   1. slash flood: 8 clients looping on `/api` + thousands of `/` (8,000 and 15,000 bytes, with
 *      and without a last letter and slash): under 8 KiB routed, over it refused;
 *   2. junk-token flood: ABUSE_JUNK requests (20,000) to POST /api/v1/track/sale, each with its
 *      own 8 KB Bearer token;
 *   3. oversized bodies: bodies from 64 KiB + 1 to 4 MiB + 1, Content-Length and chunked.
 * Prints, per phase, the attack's own latency and answers, /healthz p50/p99 and RSS beside the
 * figures at rest. Settings: ABUSE_SECONDS (5, the slash flood's length), ABUSE_JUNK (20000),
 * ABUSE_BODIES (64).
 */
import { join } from 'node:path'
import { freePort, runFolder, rssMb, spawnChild, stopChild, waitReady, type Child } from './lib/proc.ts'

const env = process.env
const SECONDS = Math.min(60, Number(env.ABUSE_SECONDS ?? 5) || 5)
const JUNK = Math.min(200_000, Number(env.ABUSE_JUNK ?? 20_000) || 20_000)
const BODIES = Math.min(1_000, Number(env.ABUSE_BODIES ?? 64) || 64)
const ROOT = join(import.meta.dir, '..')
const TMP = runFolder('svc-abuse-')
const KiB = 1024
const MiB = 1024 * KiB

const watchdog = setTimeout(
  () => {
    console.error('abuse: watchdog, stopping')
    process.exit(1) // the exit handler of runFolder kills the children and removes the folder
  },
  (SECONDS * 4 + 240) * 1000,
)

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : NaN
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : '–')

/** Times GET /healthz every `everyMs` until `stop()`; one request at a time, as a load balancer's probe. */
function probe(url: string, everyMs = 10) {
  const times: number[] = []
  let running = true
  const done = (async () => {
    while (running) {
      const started = performance.now()
      await (await fetch(`${url}/healthz`)).arrayBuffer()
      times.push(performance.now() - started)
      await Bun.sleep(everyMs)
    }
  })()
  return {
    async stop() {
      running = false
      await done
      const sorted = times.sort((a, b) => a - b)
      return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
    },
  }
}

interface Phase {
  name: string
  requests: number
  statuses: Map<number, number>
  attackP50: number
  attackP99: number
  attackMax: number
  healthP50: number
  healthP99: number
  rss: number | null
  rssPeak: number | null
  bad: number
}

/** Runs `attack` (returning per-request latencies and statuses) beside the probe, sampling RSS. */
async function phase(
  name: string,
  child: Child,
  attack: () => Promise<{ times: number[]; statuses: number[]; bad: number }>,
): Promise<Phase> {
  const health = probe(child.url)
  let rssPeak = rssMb(child)
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak ?? 0, rssMb(child) ?? 0)
  }, 100)
  const { times, statuses, bad } = await attack()
  clearInterval(sampler)
  const h = await health.stop()
  const sorted = times.sort((a, b) => a - b)
  const counts = new Map<number, number>()
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1)
  return {
    name,
    requests: times.length,
    statuses: counts,
    attackP50: percentile(sorted, 50),
    attackP99: percentile(sorted, 99),
    attackMax: sorted[sorted.length - 1] ?? NaN,
    healthP50: h.p50,
    healthP99: h.p99,
    rss: rssMb(child),
    rssPeak: Math.max(rssPeak ?? 0, rssMb(child) ?? 0),
    bad,
  }
}

/** `clients` loops sending `next(i)` until `until()` says stop or `total` requests were sent. */
async function loops(
  clients: number,
  send: (i: number) => Promise<{ status: number; ok: boolean }>,
  limit: { total?: number; seconds?: number },
) {
  const times: number[] = []
  const statuses: number[] = []
  let bad = 0
  let next = 0
  const deadline = limit.seconds ? performance.now() + limit.seconds * 1000 : Infinity
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline && (limit.total === undefined || next < limit.total)) {
        const i = next++
        const started = performance.now()
        try {
          const { status, ok } = await send(i)
          times.push(performance.now() - started)
          statuses.push(status)
          if (!ok) bad++
        } catch {
          times.push(performance.now() - started)
          statuses.push(0)
          bad++
        }
      }
    }),
  )
  return { times, statuses, bad }
}

/** An answer is good when it is JSON with an X-Request-ID (the envelope, never a bare body). */
async function enveloped(response: Response): Promise<{ status: number; ok: boolean }> {
  const text = await response.text()
  let json = true
  try {
    JSON.parse(text)
  } catch {
    json = false
  }
  return { status: response.status, ok: json && response.status < 500 && response.headers.get('x-request-id') !== null }
}

async function main() {
  const port = freePort()
  const child = spawnChild('svc', [process.execPath, join(ROOT, 'src/main.ts')], {
    port,
    logPath: join(TMP, 'svc.log'),
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_PATH: join(TMP, 'svc.db'),
      SVC_LOG_REQUESTS: 'false',
      SVC_ADMIN_TOKEN: `abuse-admin-${crypto.randomUUID()}`,
    },
  })
  await waitReady(child, '/healthz')
  const url = child.url

  // At rest: the probe alone.
  for (let i = 0; i < 50; i++) await (await fetch(`${url}/healthz`)).arrayBuffer()
  const restProbe = probe(url)
  await Bun.sleep(2_000)
  const rest = await restProbe.stop()
  const restRss = rssMb(child)

  const phases: Phase[] = []
  const slashTargets = [
    `/api${'/'.repeat(8_000 - 7)}a/`,
    `/api${'/'.repeat(8_000 - 5)}`,
    `/api${'/'.repeat(15_000)}a/`,
    `/api${'/'.repeat(15_000)}`,
  ]
  phases.push(
    await phase('slash flood (8 clients)', child, () =>
      loops(8, async (i) => enveloped(await fetch(url + slashTargets[i % slashTargets.length])), { seconds: SECONDS }),
    ),
  )

  const junk = 'j'.repeat(8 * KiB - 40)
  phases.push(
    await phase(`junk tokens (${JUNK} × 8 KB)`, child, () =>
      loops(
        16,
        async (i) =>
          enveloped(
            await fetch(`${url}/api/v1/track/sale`, {
              method: 'POST',
              body: '{}',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${i}-${junk}` },
            }),
          ),
        { total: JUNK },
      ),
    ),
  )

  const sizes = [64 * KiB + 1, 512 * KiB + 1, MiB + 1, 4 * MiB + 1]
  const bodies = sizes.map((size) => new Uint8Array(size).fill(32))
  phases.push(
    await phase(`oversized bodies (${BODIES}, 64 KiB+1 … 4 MiB+1)`, child, () =>
      loops(
        4,
        async (i) => {
          const bytes = bodies[i % bodies.length]
          const chunked = i % 2 === 1
          const body = chunked
            ? new ReadableStream({
                start(c) {
                  for (let at = 0; at < bytes.length; at += 256 * KiB) c.enqueue(bytes.subarray(at, at + 256 * KiB))
                  c.close()
                },
              })
            : bytes
          const response = await fetch(`${url}/api/v1/track/click`, {
            method: 'POST',
            body,
            duplex: 'half',
            headers: { 'content-type': 'application/json' },
          } as RequestInit)
          const answer = await enveloped(response)
          // 400 (too large), or 429 once the click limit of this one IP is spent: both the route's envelope.
          return { status: answer.status, ok: answer.ok && (answer.status === 400 || answer.status === 429) }
        },
        { total: BODIES },
      ),
    ),
  )

  // After the junk flood, the credential-free limit still holds: the 61st poll a minute is refused.
  let polls = 0
  let refusedAt = 0
  while (!refusedAt && polls < 200) {
    polls++
    const response = await fetch(`${url}/api/v1/cli/auth/poll?state=x`, { headers: { authorization: `Bearer junk-${polls}` } })
    await response.arrayBuffer()
    if (response.status === 429) refusedAt = polls
  }

  console.log(`\nsvc abuse scenario (${new Date().toISOString()}, bun ${Bun.version}, all on 127.0.0.1)\n`)
  console.log(`at rest: /healthz p50 ${ms(rest.p50)}, p99 ${ms(rest.p99)} (${rest.count} probes); RSS ${restRss} MB\n`)
  const rows = [['phase', 'requests', 'answers', 'not enveloped', 'attack p50 / p99 / max', '/healthz p50 / p99', 'RSS after (peak)']]
  for (const p of phases) {
    rows.push([
      p.name,
      String(p.requests),
      [...p.statuses].map(([s, n]) => `${s}×${n}`).join(' '),
      String(p.bad),
      `${ms(p.attackP50)} / ${ms(p.attackP99)} / ${ms(p.attackMax)}`,
      `${ms(p.healthP50)} / ${ms(p.healthP99)}`,
      `${p.rss} MB (${p.rssPeak} MB)`,
    ])
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c])).join('  '))
  console.log(
    `\ncredential-free limit after the floods: poll with a fresh junk token each time refused at request ${refusedAt || 'never'} (expected 61)`,
  )
  await stopChild(child)
  clearTimeout(watchdog)
}

await main()
