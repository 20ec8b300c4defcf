/**
 * One load run, by wrk (Debian's package, a C program: the lightest generator, so the two cores
 * go to the server) when it is on PATH, else by autocannon's programmatic API inside this Bun
 * process. BENCH_LOAD=wrk|autocannon chooses. Both run the same declarative request shape, so a
 * figure depends on the generator only through what the generator itself costs.
 */
import autocannon from 'autocannon'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Variant {
  /** The body; `{n}` becomes this request's number, unique within the whole benchmark run. */
  body: string
  headers?: Record<string, string>
}

export interface Shape {
  method: 'POST' | 'GET'
  path: string
  headers?: Record<string, string>
  /** Taken in turn, request n uses variants[n % length]. */
  variants: Variant[]
  /** Every request from a new visitor: X-Forwarded-For is a fresh address for each request. */
  newVisitorEachRequest?: boolean
}

export interface LoadResult {
  generator: 'wrk' | 'autocannon'
  requests: number
  seconds: number
  rps: number
  p50: number
  p99: number
  ok2xx: number
  non2xx: number
  /** Answers by status; wrk only tells "4xx/5xx" as a whole. */
  statuses: Record<string, number>
  errors: number
  timeouts: number
  /** The server's CPU time (user + system, from /proc) per answered request, in µs: what the load average moves least. */
  cpuUs?: number
  /** The kernel's part of cpuUs (the socket writes and reads, the WAL's writes and fsyncs). */
  systemUs?: number
}

export interface LoadOptions {
  connections: number
  seconds: number
}

/**
 * Request numbers never repeat across the runs of one benchmark: each run takes a block of
 * RUN_BLOCK numbers, and each wrk thread its own part of it (threads do not keep pace).
 */
let numbered = 0
const RUN_BLOCK = 100_000_000
/** Visitor addresses of the load runs: 10.128.0.0 to 10.255.255.255, apart from the fixtures' lower half. */
const visitor = (n: number) => {
  const a = (1 << 23) + (n % (1 << 23))
  return `10.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`
}

export const generator: 'wrk' | 'autocannon' =
  process.env.BENCH_LOAD === 'autocannon' || (process.env.BENCH_LOAD !== 'wrk' && !Bun.which('wrk')) ? 'autocannon' : 'wrk'

export async function load(url: string, shape: Shape, options: LoadOptions): Promise<LoadResult> {
  const first = numbered
  numbered += RUN_BLOCK
  return generator === 'wrk' ? await loadWrk(url, shape, options, first) : await loadAutocannon(url, shape, options, first)
}

// ---- wrk -----------------------------------------------------------------------------------

const THREADS = 2
const luaString = (s: string) => {
  if (s.includes(']==]')) throw new Error('bench: a request value contains "]==]"')
  return `[==[${s}]==]`
}
const luaTable = (headers: Record<string, string>) =>
  `{${Object.entries(headers)
    .map(([k, v]) => `[ ${luaString(k)} ] = ${luaString(v)}`)
    .join(',')}}`

/** The Lua script: a fixed request is set once (wrk's fastest path); otherwise request() builds each one. */
function wrkScript(shape: Shape, first: number): string {
  const base = { 'content-type': 'application/json', ...shape.headers }
  const fixed = shape.variants.length === 1 && !shape.newVisitorEachRequest && !shape.variants[0].body.includes('{n}')
  const report = `
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"duration_us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout, latency:percentile(50), latency:percentile(99)))
end`
  if (fixed) {
    const v = shape.variants[0]
    return `wrk.method = ${luaString(shape.method)}
wrk.body = ${luaString(v.body)}
wrk.headers = ${luaTable({ ...base, ...v.headers })}
${report}`
  }
  return `local variants = {
${shape.variants.map((v) => `  { body = ${luaString(v.body)}, headers = ${luaTable({ ...base, ...v.headers })} },`).join('\n')}
}
local method, path, visitors, first = ${luaString(shape.method)}, ${luaString(shape.path)}, ${shape.newVisitorEachRequest ? 'true' : 'false'}, ${first}
local started = 0
function setup(thread) thread:set("id", started); started = started + 1 end
local n = nil
function request()
  n = n and n + 1 or first + id * ${RUN_BLOCK / THREADS}
  local v = variants[(n % #variants) + 1]
  local h = v.headers
  if visitors then
    local a = ${1 << 23} + n % ${1 << 23}
    h["x-forwarded-for"] = string.format("10.%d.%d.%d", math.floor(a / 65536) % 256, math.floor(a / 256) % 256, a % 256)
  end
  local body = v.body
  if body:find("{n}", 1, true) then body = (body:gsub("{n}", tostring(n))) end
  return wrk.format(method, path, h, body)
end
${report}`
}

async function loadWrk(url: string, shape: Shape, options: LoadOptions, first: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wrk-'))
  try {
    const script = join(dir, 'shape.lua')
    writeFileSync(script, wrkScript(shape, first))
    const target = new URL(shape.path, url).toString()
    const proc = Bun.spawn(
      [
        'wrk',
        `-t${THREADS}`,
        `-c${Math.max(THREADS, options.connections)}`,
        `-d${options.seconds}s`,
        '--timeout',
        '10s',
        '-s',
        script,
        target,
      ],
      { stdout: 'pipe', stderr: 'pipe' },
    )
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
    await proc.exited
    const line = out
      .trim()
      .split('\n')
      .reverse()
      .find((l) => l.startsWith('{"requests"'))
    if (!line) throw new Error(`wrk printed no figures (exit ${proc.exitCode}): ${(err || out).slice(0, 300)}`)
    const r = JSON.parse(line) as Record<string, number>
    const seconds = r.duration_us / 1e6
    const socketErrors = r.connect + r.read + r.write
    return {
      generator: 'wrk',
      requests: r.requests,
      seconds,
      rps: r.requests / seconds,
      p50: r.p50_us / 1000,
      p99: r.p99_us / 1000,
      ok2xx: r.requests - r.status,
      non2xx: r.status,
      statuses: r.status ? { '4xx/5xx': r.status } : {},
      errors: socketErrors,
      timeouts: r.timeout,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- autocannon ----------------------------------------------------------------------------

/** Upper bound of recorded response times (a run past it keeps counting but stops recording). */
const MAX_SAMPLES = 4_000_000

/**
 * autocannon's own percentiles are whole milliseconds, so every response time (a float, in ms)
 * is recorded here to print p50 and p99 with sub-millisecond precision.
 */
async function loadAutocannon(url: string, shape: Shape, options: LoadOptions, first: number): Promise<LoadResult> {
  const samples = new Float64Array(MAX_SAMPLES)
  let recorded = 0
  let k = 0
  const baseHeaders = { 'content-type': 'application/json', ...shape.headers }
  const variants = shape.variants.map((v) => ({
    body: v.body,
    headers: { ...baseHeaders, ...v.headers },
    numbered: v.body.includes('{n}'),
  }))
  const fixed = variants.length === 1 && !shape.newVisitorEachRequest && !variants[0].numbered
  const instance = autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: [
      fixed
        ? { method: shape.method, path: shape.path, headers: variants[0].headers, body: variants[0].body }
        : {
            method: shape.method,
            path: shape.path,
            setupRequest: (request: Record<string, unknown>) => {
              const n = first + k++
              const v = variants[n % variants.length]
              const headers = shape.newVisitorEachRequest ? { ...v.headers, 'x-forwarded-for': visitor(n) } : v.headers
              return { ...request, body: v.numbered ? v.body.replaceAll('{n}', String(n)) : v.body, headers }
            },
          },
    ],
  })
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (recorded < MAX_SAMPLES) samples[recorded++] = responseTime
  })
  const result = await instance
  const times = samples.subarray(0, recorded).sort()
  const pct = (p: number) => (recorded ? times[Math.min(recorded - 1, Math.floor((p / 100) * recorded))] : NaN)
  const statuses: Record<string, number> = {}
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (stat as { count: number }).count
  const requests = result.requests.total ?? result.requests.sent
  return {
    generator: 'autocannon',
    requests,
    seconds: result.duration,
    rps: requests / result.duration,
    p50: pct(50),
    p99: pct(99),
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  }
}
