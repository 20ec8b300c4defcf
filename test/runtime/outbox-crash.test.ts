// docs/decisions.md, Email: a crash loses no email. The server is killed with -9 while emails are
// being sent to a mail server that never answers; after the restart every one arrives, and no
// email delivered before the crash is sent again.
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN } from '../helpers.ts'
import { startSmtp } from '../outbox/smtp.ts'
import { spawnServer } from './spawn.ts'

/** A TCP server that takes connections and never says a word: a send to it hangs. */
function silent(port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
  })
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy()
            server.close(() => done())
          }),
      }),
    ),
  )
}

test('kill -9 while emails are being sent: after the restart each arrives, and none delivered before is sent twice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-outbox-crash-'))
  const smtp = await startSmtp()
  const env = { DATABASE_PATH: join(dir, 'svc.db'), SMTP_URL: smtp.url, TRUST_PROXY: 'true' }
  const admin = (url: string, path: string, body?: unknown) =>
    fetch(`${url}/api/v1/admin${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>)
  const apply = (url: string, programId: number, i: number) =>
    fetch(`${url}/join/${programId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
      body: JSON.stringify({ name: `Partner ${i}`, email: `p${i}@partners.test` }),
    })
  try {
    let server = await spawnServer([process.execPath, 'src/main.ts'], env)
    const account = await admin(server.url, '/accounts', { email: 'owner@crash.test' })
    const program = await admin(server.url, '/programs', {
      account_id: account.data.account_id,
      name: 'Crash Shop',
      domain: 'crash.test',
      commission_type: 'percent',
      commission_rate: 10,
      partner_signup: 'open',
    })
    const programId = program.data.program_id
    // Five partners join while mail works: ten emails delivered (each partner's, and the owner's).
    for (let i = 0; i < 5; i++) expect((await apply(server.url, programId, i)).status).toBe(202)
    expect(await smtp.waitFor(10)).toHaveLength(10)

    // The mail server stops answering; five more join; their emails are in flight when the server dies.
    await smtp.stop()
    const hang = await silent(smtp.port)
    for (let i = 5; i < 10; i++) expect((await apply(server.url, programId, i)).status).toBe(202)
    await Bun.sleep(300)
    server.kill('SIGKILL')
    await server.exited
    await hang.close()
    await smtp.start()

    server = await spawnServer([process.execPath, 'src/main.ts'], env)
    const received = await smtp.waitFor(20, 10_000)
    await Bun.sleep(300)
    expect(received).toHaveLength(20)
    const keys = received.map((m) => `${m.to[0]} ${m.subject}`)
    expect(new Set(keys).size).toBe(20)
    for (let i = 0; i < 10; i++) expect(received.some((m) => m.to[0] === `p${i}@partners.test`)).toBe(true)
    const rows = await admin(server.url, `/emails?program_id=${programId}&limit=200`)
    expect(rows.data.map((r: { status: string }) => r.status)).toEqual(Array(20).fill('sent'))
    await server.stop()
  } finally {
    await smtp.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
