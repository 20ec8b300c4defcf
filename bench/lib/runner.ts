/**
 * What every service benchmark does the same way: a warm-up run then the measured one (with the
 * server's CPU per request), a bare baseline server (bench/baseline-serve.ts), and the service
 * started as a user would (`bun src/main.ts` with its environment), optionally under the CPU profiler.
 */
import { join } from 'node:path'
import { load, type LoadResult, type Shape } from './load.ts'
import { cpuSeconds, freePort, spawnChild, stopChild, waitReady, type Child } from './proc.ts'

export interface RunnerSettings {
  seconds: number
  warmup: number
  connections: number
  /** The run's folder: databases and logs. */
  tmp: string
  adminToken: string
  /** A folder for `bun --cpu-prof` profiles of the service, or null. */
  cpuProf: string | null
  /** The service's entry point (another checkout's src/main.ts can be compared on the same machine). */
  serviceMain: string
}

const ROOT = join(import.meta.dir, '..', '..')
const BUN = process.execPath

export function runner(settings: RunnerSettings) {
  /** A warm-up run (discarded figures, counted 2xx), then the measured run. */
  async function measure(child: Child, shape: Shape): Promise<{ main: LoadResult; warm2xx: number }> {
    let warm2xx = 0
    const options = { connections: settings.connections }
    if (settings.warmup > 0) warm2xx = (await load(child.url, shape, { ...options, seconds: settings.warmup })).ok2xx
    const cpuBefore = cpuSeconds(child)
    const main = await load(child.url, shape, { ...options, seconds: settings.seconds })
    const cpuAfter = cpuSeconds(child)
    if (cpuBefore !== null && cpuAfter !== null && main.requests > 0) {
      const perRequest = (seconds: number) => (seconds * 1e6) / main.requests
      main.systemUs = perRequest(cpuAfter.system - cpuBefore.system)
      main.cpuUs = perRequest(cpuAfter.user - cpuBefore.user) + main.systemUs
    }
    return { main, warm2xx }
  }

  /** One bare baseline (bench/baseline-serve.ts) measured with `shape`; null never (throws on a failed start). */
  async function baseline(
    name: string,
    mode: 'commit' | 'group' | 'group-elysia' | 'elysia',
    sync: 'FULL' | 'NORMAL',
    shape: Shape,
  ): Promise<LoadResult | null> {
    const port = freePort()
    const child = spawnChild(
      name,
      [BUN, join(ROOT, 'bench/baseline-serve.ts'), mode, String(port), join(settings.tmp, `${name}.db`), sync],
      {
        port,
        logPath: join(settings.tmp, `${name}.log`),
      },
    )
    try {
      await waitReady(child)
      const { main } = await measure(child, shape)
      console.error(`  ${name}: ${Math.round(main.rps)} req/s, p99 ${main.p99.toFixed(2)} ms`)
      return main
    } finally {
      await stopChild(child)
    }
  }

  /** The service on a free port over a fresh database in the run's folder, once it answers /healthz. */
  async function startService(name: string, extra: Record<string, string>): Promise<{ child: Child; dbPath: string }> {
    const port = freePort()
    const dbPath = join(settings.tmp, `${name}.db`)
    const prof = settings.cpuProf ? ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${settings.cpuProf}`, `--cpu-prof-name=${name}`] : []
    const child = spawnChild(name, [BUN, ...prof, settings.serviceMain], {
      port,
      logPath: join(settings.tmp, `${name}.log`),
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_PATH: dbPath,
        SVC_ADMIN_TOKEN: settings.adminToken,
        TRUST_PROXY: 'true',
        SVC_LOG_REQUESTS: 'false',
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        ...extra,
      },
    })
    await waitReady(child, '/healthz')
    return { child, dbPath }
  }

  return { measure, baseline, startService }
}
