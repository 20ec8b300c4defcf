// The request log (src/log.ts): the same JSON lines as one console.log per line gave, written
// once per event-loop turn, and none lost when the process stops.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lineLog } from '../src/log.ts'
import { ADMIN_TOKEN } from './helpers.ts'

const root = join(import.meta.dir, '..')
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('the buffered log', () => {
  test('lines of one turn are written together (an error at once), each a JSON object with time first and the fields in order', async () => {
    const writes: string[] = []
    const log = lineLog((text) => writes.push(text))
    log({ level: 'info', method: 'POST', route: '/api/v1/track/click', status: 200, duration_ms: 0.42, request_id: 'req_1' })
    expect(writes).toEqual([])
    // An error line is written at once, after what was pending: before the 500 it explains.
    log({ level: 'error', request_id: 'req_2', error: 'a "quoted"\nstack' })
    expect(writes.length).toBe(1)
    log({})
    await turn()
    expect(writes.length).toBe(2)
    const lines = writes
      .join('\n')
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => Object.keys(line))).toEqual([
      ['time', 'level', 'method', 'route', 'status', 'duration_ms', 'request_id'],
      ['time', 'level', 'request_id', 'error'],
      ['time'],
    ])
    expect(lines[1].error).toBe('a "quoted"\nstack')
    for (const line of lines) expect(new Date(line.time).toISOString()).toBe(line.time)
    log({ level: 'info', n: 4 })
    await turn()
    expect(writes.length).toBe(3)
    expect(JSON.parse(writes[2])).toMatchObject({ level: 'info', n: 4 })
  })

  test('flush() writes pending lines at once; a burst past 64 KB is written without waiting for the turn', () => {
    const writes: string[] = []
    const log = lineLog((text) => writes.push(text))
    log({ level: 'info', n: 1 })
    log.flush()
    expect(writes.length).toBe(1)
    log.flush()
    expect(writes.length).toBe(1)
    for (let i = 0; i < 2000; i++) log({ level: 'info', padding: 'x'.repeat(40), n: i })
    expect(writes.length).toBeGreaterThan(1)
    log.flush()
    const lines = writes
      .slice(1)
      .join('\n')
      .split('\n')
      .map((line) => JSON.parse(line).n)
    expect(lines).toEqual(Array.from({ length: 2000 }, (_, i) => i))
  })

  test('with holdMs, lines that follow a write wait until holdMs after it; a quiet log writes at the end of the turn, an error at once', async () => {
    const writes: { at: number; text: string }[] = []
    const log = lineLog((text) => writes.push({ at: performance.now(), text }), { holdMs: 40 })
    const lines = () => writes.flatMap((w) => w.text.split('\n').map((line) => JSON.parse(line).n))
    // Quiet: the first line is written at the end of its turn, as without holdMs.
    log({ level: 'info', n: 0 })
    await turn()
    expect(lines()).toEqual([0])
    // Busy: lines of the next turns wait for the hold, then go out together, in order.
    for (let n = 1; n <= 3; n++) {
      log({ level: 'info', n })
      await turn()
    }
    expect(writes.length).toBe(1)
    await Bun.sleep(60)
    expect(writes.length).toBe(2)
    expect(lines()).toEqual([0, 1, 2, 3])
    expect(writes[1]!.at - writes[0]!.at).toBeGreaterThanOrEqual(39)
    // An error line does not wait: it is written at once with what was pending before it.
    log({ level: 'info', n: 4 })
    log({ level: 'error', n: 5 })
    expect(writes.length).toBe(3)
    expect(lines()).toEqual([0, 1, 2, 3, 4, 5])
    log.flush()
    await Bun.sleep(60)
    expect(writes.length).toBe(3)
  })

  test('a process that exits in the same turn still writes every pending line', () => {
    const script = `import { lineLog } from ${JSON.stringify(join(root, 'src/log.ts'))}
const log = lineLog()
for (let i = 0; i < 500; i++) log({ level: 'info', n: i })
process.exit(0)`
    const run = Bun.spawnSync([process.execPath, '-e', script], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    expect(run.stderr.toString()).toBe('')
    const lines = run.stdout
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).n)
    expect(lines).toEqual(Array.from({ length: 500 }, (_, i) => i))
  })
})

test('the service logs one line per request and none is lost at SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-log-'))
  const child = Bun.spawn([process.execPath, 'src/main.ts'], {
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_ADMIN_TOKEN: ADMIN_TOKEN,
      SVC_LOG_REQUESTS: 'true',
      DATABASE_PATH: join(dir, 'svc.db'),
    },
  })
  try {
    const reader = child.stdout.getReader()
    let text = ''
    let url: string | undefined
    while (!url) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`no listening line: ${text}${await new Response(child.stderr).text()}`)
      text += new TextDecoder().decode(value)
      url = text.match(/"url":"(http:\/\/[^"]+)"/)?.[1]
    }
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => fetch(`${url}/healthz?n=${i}`).then((r) => r.text())))
    expect(answers.length).toBe(200)
    // SIGTERM at once: lines of the last turn may still be pending; stop() writes them.
    child.kill('SIGTERM')
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    expect(await child.exited).toBe(0)
    const requests = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.route === '/healthz')
    expect(requests.length).toBe(200)
    for (const line of requests) {
      expect(Object.keys(line)).toEqual(['time', 'level', 'method', 'route', 'status', 'duration_ms', 'request_id'])
      expect(line).toMatchObject({ level: 'info', method: 'GET', status: 200 })
    }
  } finally {
    child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
