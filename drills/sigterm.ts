/**
 * The shutdown drill (issue 10; docs/decisions.md, Shutdown): N rounds of sale load over keep-alive
 * connections, each ended by SIGTERM to the server. Counts, per round and in total: acknowledged
 * sales missing afterwards (must be 0), connections reset under a request (must be 0: a late
 * request answers 503 with Connection: close; a refused new connection after the listener has
 * closed is counted apart), 503 answers, the exit code and the time from SIGTERM to exit (< 10 s).
 *
 * `bun drills/sigterm.ts` (or `npm run drill`); DRILL_TERM_ROUNDS (5), DRILL_WIDTH (32),
 * DRILL_RUNTIME (bun or deno).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { client, line, ROOT, saleBody, setUpProgram, startService, storedTransactions, type Program } from './lib.ts'

export interface SigtermRound {
  acknowledged: number
  lost: number
  resets: number
  refused: number
  unavailable: number
  exitCode: number | null
  exitMs: number
}

const commands = {
  bun: [process.execPath, join(ROOT, 'src/main.ts')],
  deno: [join(ROOT, 'node_modules/.bin/deno'), 'run', '--node-modules-dir=manual', '-A', join(ROOT, 'src/main-deno.ts')],
}

/** A refused connection (nothing was listening) is not a reset of an open one. */
const isRefused = (error: unknown) => /refused/i.test(`${(error as { code?: string })?.code} ${(error as Error)?.message}`)

export async function sigtermDrill(options: { rounds: number; width?: number; runtime?: 'bun' | 'deno' }): Promise<SigtermRound[]> {
  const { rounds, width = 32, runtime = 'bun' } = options
  const dir = mkdtempSync(join(tmpdir(), 'svc-drill-sigterm-'))
  const databasePath = join(dir, 'svc.db')
  const env = { DATABASE_PATH: databasePath, SVC_RATE_LIMIT_SCALE: '10000' }
  const results: SigtermRound[] = []
  let program: Program | null = null
  let n = 0
  try {
    for (let round = 1; round <= rounds; round++) {
      const service = await startService(env, join(dir, `round-${round}.log`), commands[runtime])
      program ??= await setUpProgram(service.url, 't', 50)
      const { send } = client(service.url)
      const acked = new Set<string>()
      const r = { resets: 0, refused: 0, unavailable: 0 }
      let stop = false
      const worker = async () => {
        while (!stop) {
          const body = saleBody(program!, 't', n++)
          try {
            const reply = await send('POST', '/api/v1/track/sale', body, program!.apiKey)
            if (reply.status === 201 || reply.status === 200) acked.add(body.transaction_id)
            else if (reply.status === 503) {
              // A well-behaved client waits Retry-After (5 s) before trying again.
              r.unavailable++
              for (let t = 0; t < 50 && !stop; t++) await Bun.sleep(100)
            }
          } catch (error) {
            if (isRefused(error)) {
              r.refused++
              await Bun.sleep(20)
            } else r.resets++
          }
        }
      }
      const load = Promise.all(Array.from({ length: width }, worker))
      await Bun.sleep(1_000 + Math.random() * 1_000)
      const termAt = performance.now()
      const exitCode = await service.term()
      const exitMs = performance.now() - termAt
      stop = true
      await load
      const stored = storedTransactions(databasePath)
      let lost = 0
      for (const id of acked) if (!stored.has(id)) lost++
      results.push({ acknowledged: acked.size, lost, ...r, exitCode, exitMs: Math.round(exitMs) })
    }
    return results
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const runtime = process.env.DRILL_RUNTIME === 'deno' ? 'deno' : 'bun'
  const rounds = await sigtermDrill({
    rounds: Number(process.env.DRILL_TERM_ROUNDS ?? 5),
    width: Number(process.env.DRILL_WIDTH ?? 32),
    runtime,
  })
  rounds.forEach((r, i) => {
    console.log(line(`SIGTERM round ${i + 1} (${runtime})`, { ...r }))
  })
  const sum = (key: keyof SigtermRound) => rounds.reduce((a, r) => a + Number(r[key]), 0)
  const total = {
    rounds: rounds.length,
    acknowledged: sum('acknowledged'),
    acknowledged_lost: sum('lost'),
    resets: sum('resets'),
    refused_after_close: sum('refused'),
    answered_503: sum('unavailable'),
    exit_codes: [...new Set(rounds.map((r) => r.exitCode))].join(','),
    max_exit_ms: Math.max(...rounds.map((r) => r.exitMs)),
  }
  console.log(line(`SIGTERM under sale load (${runtime})`, total))
  if (total.acknowledged_lost || total.resets || total.exit_codes !== '0' || total.max_exit_ms >= 10_000) process.exitCode = 1
}
