// Cold start and idle memory (issue 36): the compiled svc binary (as `npm run build:server` makes
// it) against the stack's floor (bench/floor/server.ts) compiled both ways, with and without
// --bytecode, started in turns, each on a fresh database. Prints the median time from spawn to the
// first 200 on /healthz, and the RSS a second after it.
//   bun bench/cold-start.ts            (8 starts each; COLD_STARTS=16 for more; COLD_SKIP_BUILD=1 reuses dist/)
//   COLD_BEFORE=/path/to/an/older/checkout bun bench/cold-start.ts   adds that tree's server, built as it was then
//   COLD_IDLE_MS=4000 reads the RSS that long after the first 200 instead of one second
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../test/helpers.ts'
import { serverBuild } from '../test/runtime/spawn.ts'

const ROOT = join(import.meta.dir, '..')
const STARTS = Number(process.env.COLD_STARTS ?? 8)
const IDLE_MS = Number(process.env.COLD_IDLE_MS ?? 1000)

async function build(cwd: string, args: string[]): Promise<void> {
  const child = Bun.spawn([process.execPath, ...args], { cwd, stdout: 'ignore', stderr: 'inherit' })
  if ((await child.exited) !== 0) throw new Error(`build in ${cwd} failed: ${args.join(' ')}`)
}

/** Resident memory of a process, in MB (Linux /proc). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024

async function start(binary: string): Promise<{ ms: number; rss: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cold-'))
  const port = await freePort()
  const began = performance.now()
  const child = Bun.spawn([binary], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'svc.db'), SVC_LOG_REQUESTS: 'false' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) break
      } catch {
        // not listening yet
      }
      if (performance.now() - began > 10_000) throw new Error(`${binary} did not answer within 10 s`)
      await Bun.sleep(1)
    }
    const ms = performance.now() - began
    await Bun.sleep(IDLE_MS)
    return { ms, rss: rssOf(child.pid) }
  } finally {
    child.kill('SIGKILL')
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const before = process.env.COLD_BEFORE
const binaries: Record<string, string> = {
  floor: join(ROOT, 'dist/floor-server'),
  'floor-bytecode': join(ROOT, 'dist/floor-server-bytecode'),
  ...(before ? { before: join(ROOT, 'dist/svc-server-before') } : {}),
  svc: join(ROOT, 'dist/svc-server'),
}
if (!process.env.COLD_SKIP_BUILD) {
  await build(ROOT, ['build', '--compile', '--minify', 'bench/floor/server.ts', '--outfile', binaries.floor!])
  await build(ROOT, ['build', '--compile', '--minify', '--bytecode', 'bench/floor/server.ts', '--outfile', binaries['floor-bytecode']!])
  if (before) await build(before, serverBuild(before, binaries.before!))
  await build(ROOT, serverBuild(ROOT, binaries.svc!))
}
const runs: Record<string, { ms: number; rss: number }[]> = Object.fromEntries(Object.keys(binaries).map((name) => [name, []]))
for (let i = 0; i < STARTS; i++) for (const [name, binary] of Object.entries(binaries)) runs[name]!.push(await start(binary))
const floorMs = median(runs.floor!.map((r) => r.ms))
const floorRss = median(runs.floor!.map((r) => r.rss))
const bytecodeMs = median(runs['floor-bytecode']!.map((r) => r.ms))
for (const [name, list] of Object.entries(runs)) {
  const ms = median(list.map((r) => r.ms))
  const rss = median(list.map((r) => r.rss))
  console.log(
    `${name.padEnd(15)} start median ${ms.toFixed(1)} ms (min ${Math.min(...list.map((r) => r.ms)).toFixed(1)}; ${(ms / floorMs).toFixed(2)} × floor, ${(ms / bytecodeMs).toFixed(2)} × floor-bytecode)  idle RSS ${rss.toFixed(1)} MB (${(rss / floorRss).toFixed(2)} × floor)`,
  )
}
