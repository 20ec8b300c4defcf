// docs/decisions.md, Shutdown: on SIGTERM the server finishes the requests it has, answers a request
// arriving on an open connection with 503 `Service is shutting down` and `Connection: close`
// (never a reset), flushes the writer, and exits 0 within 10 seconds. Checked on a real server
// process of each runtime, with raw keep-alive connections so that nothing hides a reset.
import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN } from '../helpers.ts'
import { spawnServer } from './spawn.ts'

const root = join(import.meta.dir, '../..')
const runtimes: [string, string[]][] = [
  ['bun', [process.execPath, 'src/main.ts']],
  ['deno', [join(root, 'node_modules/.bin/deno'), 'run', '--node-modules-dir=manual', '-A', 'src/main-deno.ts']],
]

/** A raw keep-alive connection: what arrived, and how it ended ('open', 'closed' or 'reset'). */
function rawConnection(url: string) {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port), hostname)
  let received = ''
  let ended: 'open' | 'closed' | 'reset' = 'open'
  const waiters: (() => void)[] = []
  const wake = () => {
    for (const w of waiters.splice(0)) w()
  }
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1')
    wake()
  })
  socket.on('error', () => {
    ended = 'reset'
    wake()
  })
  socket.on('close', (hadError) => {
    if (ended === 'open') ended = hadError ? 'reset' : 'closed'
    wake()
  })
  return {
    write: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    get received() {
      return received
    },
    get ended() {
      return ended
    },
    /** Waits (5 s at most) until `done` holds. */
    async until(done: () => boolean) {
      const deadline = Date.now() + 5_000
      while (!done() && Date.now() < deadline)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 100)
        })
      return done()
    },
  }
}

const request = (method: string, path: string, body = '', extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: svc.test\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`

describe.each(runtimes)('SIGTERM on %s', (_name, cmd) => {
  test('running requests finish, a request on an open keep-alive connection answers 503 with Connection: close, the writes are kept and the exit is 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-shutdown-'))
    const databasePath = join(dir, 'svc.db')
    const server = await spawnServer(cmd, { DATABASE_PATH: databasePath })
    try {
      // A keep-alive connection that has been used once and is idle at SIGTERM.
      const idle = rawConnection(server.url)
      await idle.write(request('GET', '/healthz'))
      expect(await idle.until(() => idle.received.includes('"ok"'))).toBe(true)

      // A request in flight at SIGTERM: its headers and half its body are sent.
      const body = JSON.stringify({ email: 'late@shop.test', name: 'x'.repeat(200) })
      const running = rawConnection(server.url)
      await running.write(request('POST', '/api/v1/admin/accounts', body).slice(0, -100))
      await Bun.sleep(200)

      const started = Date.now()
      const exited = server.stop()
      await Bun.sleep(300)

      // The idle connection sends its next request: 503 `Service is shutting down`, Connection: close.
      const before = idle.received.length
      await idle.write(request('GET', '/healthz'))
      expect(await idle.until(() => idle.received.slice(before).includes('shutting down"'))).toBe(true)
      const late = idle.received.slice(before)
      expect(late).toStartWith('HTTP/1.1 503')
      expect(late.toLowerCase()).toContain('connection: close')
      // The client is told when to come back (the next process is up within seconds).
      expect(Number(late.toLowerCase().match(/\r\nretry-after: (\d+)\r\n/)?.[1])).toBeGreaterThan(0)
      expect(JSON.parse(late.slice(late.indexOf('\r\n\r\n') + 4))).toEqual({
        data: null,
        error: { status: 503, name: 'ServiceUnavailableError', message: 'Service is shutting down', details: {} },
      })

      // The running request completes normally and its write is committed.
      await running.write(body.slice(-100))
      expect(await running.until(() => running.ended !== 'open')).toBe(true)
      expect(running.received).toStartWith('HTTP/1.1 201')
      expect(running.ended).toBe('closed')

      expect(await exited).toBe(0)
      expect(Date.now() - started).toBeLessThan(10_000)
      // Neither connection was reset: each ended with a clean close.
      expect(await idle.until(() => idle.ended !== 'open')).toBe(true)
      expect(idle.ended).toBe('closed')
      const db = new Database(databasePath, { readonly: true })
      expect(db.prepare("SELECT count(*) AS n FROM accounts WHERE email = 'late@shop.test'").get()).toEqual({ n: 1 })
      db.close()
    } finally {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)
})
