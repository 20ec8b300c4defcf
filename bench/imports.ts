// An import of 10,000 partners and 100,000 commissions from a local fake of Rewardful's API
// (issue 38): the service runs as its own process (`bun src/main.ts`) over a fresh database; the
// fake serves Rewardful's documented shapes (bench/import-fake.ts) from this process. Prints the
// time of each phase and the service's peak memory (VmHWM). Never run by the test command.
//   bun bench/imports.ts            (BENCH_PARTNERS, BENCH_COMMISSIONS to change the size)
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startImportFake } from './import-fake.ts'

const PARTNERS = Number(process.env.BENCH_PARTNERS ?? 10_000)
const COMMISSIONS = Number(process.env.BENCH_COMMISSIONS ?? 100_000)
const TOKEN = 'bench-admin-token-0123456789'
const ROOT = join(import.meta.dir, '..')

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-import-'))
const fake = startImportFake(PARTNERS, COMMISSIONS)
const port = 20_000 + Math.floor(Math.random() * 20_000)
const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-md', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
const server = Bun.spawn([process.execPath, ...prof, '--max-http-header-size=65536', 'src/main.ts'], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_PATH: join(dir, 'svc.db'),
    SVC_ADMIN_TOKEN: TOKEN,
    SVC_LOG_REQUESTS: 'false',
    MAIL_LOG: 'off',
    ALLOW_PRIVATE_URLS: 'true',
  },
  stdout: 'ignore',
  stderr: 'ignore',
})
const watchdog = setTimeout(() => (server.kill(), process.exit(1)), 30 * 60_000)
const base = `http://127.0.0.1:${port}`
const admin = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${base}/api/v1/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await r.json()) as any
}
const status = () => readFileSync(`/proc/${server.pid}/status`, 'utf8')
const kb = (field: string) => Number(status().match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1] ?? 0)

try {
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break
    if (i > 200) throw new Error('the service did not start')
    await Bun.sleep(50)
  }
  const account = await admin('POST', '/accounts', { email: 'bench@shop.test' })
  const program = await admin('POST', '/programs', {
    account_id: account.data.account_id,
    name: 'Bench',
    domain: 'shop.test',
    commission_type: 'percent',
    commission_rate: 10,
  })
  const rssBefore = kb('VmRSS')
  const started = performance.now()
  const queued = await admin('POST', `/programs/${program.data.program_id}/imports`, {
    source: 'rewardful',
    api_key: fake.secret,
    base_url: fake.url,
  })
  let readDone = 0
  let state: any
  for (;;) {
    state = (await admin('GET', `/imports/${queued.data.import_id}`)).data
    if (!readDone && state.phase === 'write') readDone = performance.now()
    if (state.status === 'done' || state.status === 'failed') break
    await Bun.sleep(200)
  }
  const total = (performance.now() - started) / 1000
  const read = ((readDone || performance.now()) - started) / 1000
  console.log(
    `import of ${PARTNERS.toLocaleString('en')} partners and ${COMMISSIONS.toLocaleString('en')} commissions from a local Rewardful fake`,
  )
  console.log(
    `status ${state.status}${state.error ? ` (${state.error})` : ''}; counts ${JSON.stringify(state.counts)}; skipped ${state.skipped_count}`,
  )
  console.log(`source requests: ${fake.requests()} pages`)
  console.log(`time: ${total.toFixed(1)} s in all (read ${read.toFixed(1)} s, write ${(total - read).toFixed(1)} s)`)
  console.log(`rate: ${Math.round((state.counts.commissions + state.counts.partners) / total).toLocaleString('en')} partners+commissions/s`)
  console.log(
    `service memory: peak RSS ${(kb('VmHWM') / 1024).toFixed(0)} MB (before the import ${(rssBefore / 1024).toFixed(0)} MB, after ${(kb('VmRSS') / 1024).toFixed(0)} MB)`,
  )
  const size = (f: string) => (statSync(join(dir, f), { throwIfNoEntry: false })?.size ?? 0) / 1024 / 1024
  console.log(`database: ${size('svc.db').toFixed(0)} MB (+ ${size('svc.db-wal').toFixed(0)} MB WAL)`)
} finally {
  clearTimeout(watchdog)
  // SIGTERM: a clean stop (and the CPU profile written, with BENCH_CPU_PROF).
  server.kill('SIGTERM')
  await server.exited
  fake.stop()
  rmSync(dir, { recursive: true, force: true })
}
