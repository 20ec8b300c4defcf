// Cold start and idle memory (issue 36): the compiled svc binary against the stack's floor
// (bench/floor/server.ts, compiled the same way), started in turns, each on a fresh database.
// Prints the median time from spawn to the first 200 on /healthz, and the RSS a second after it.
//   bun bench/cold-start.ts            (8 starts each; COLD_STARTS=16 for more; COLD_SKIP_BUILD=1 reuses dist/)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../test/helpers.ts'

const ROOT = join(import.meta.dir, '..')
const STARTS = Number(process.env.COLD_STARTS ?? 8)

async function build(entry: string, out: string): Promise<void> {
  const args = ['build', '--compile', '--minify', '--compile-exec-argv=--max-http-header-size=65536', entry, '--outfile', out]
  const child = Bun.spawn([process.execPath, ...args], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
  if ((await child.exited) !== 0) throw new Error(`build of ${entry} failed`)
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
    await Bun.sleep(1000)
    return { ms, rss: rssOf(child.pid) }
  } finally {
    child.kill('SIGKILL')
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

if (!process.env.COLD_SKIP_BUILD) {
  await build('bench/floor/server.ts', 'dist/floor-server')
  await build('src/main.ts', 'dist/svc-server')
}
const runs = { floor: [] as { ms: number; rss: number }[], svc: [] as { ms: number; rss: number }[] }
for (let i = 0; i < STARTS; i++) {
  runs.floor.push(await start(join(ROOT, 'dist/floor-server')))
  runs.svc.push(await start(join(ROOT, 'dist/svc-server')))
}
const floorMs = median(runs.floor.map((r) => r.ms))
const floorRss = median(runs.floor.map((r) => r.rss))
for (const [name, list] of Object.entries(runs)) {
  const ms = median(list.map((r) => r.ms))
  const rss = median(list.map((r) => r.rss))
  console.log(
    `${name.padEnd(6)} start median ${ms.toFixed(1)} ms (min ${Math.min(...list.map((r) => r.ms)).toFixed(1)}, ${(ms / floorMs).toFixed(2)} × floor)  idle RSS ${rss.toFixed(1)} MB (${(rss / floorRss).toFixed(2)} × floor)`,
  )
}
