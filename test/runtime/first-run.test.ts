// The first run as a new owner takes it: `npm start` on an empty database, the setup code read
// from the server's own stderr, the setup form posted, the dashboard opened with the cookie it set.
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../helpers.ts'

test('a fresh database: the code on stderr opens /setup, which creates the account and program and signs in', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-first-run-'))
  const port = await freePort()
  const child = Bun.spawn([process.execPath, 'src/main.ts'], {
    cwd: join(import.meta.dir, '../..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_PATH: join(dir, 'svc.db'),
      SVC_LOG_REQUESTS: 'false',
      SVC_ADMIN_TOKEN: '',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  try {
    const reader = child.stderr.getReader()
    let err = ''
    const deadline = Date.now() + 15_000
    while (!err.includes('\n') && Date.now() < deadline) {
      const { value, done } = await reader.read()
      if (done) break
      err += new TextDecoder().decode(value)
    }
    const line = err.split('\n').find((l) => l.startsWith('svc: first run'))!
    expect(line).toMatch(new RegExp(`^svc: first run: open http://localhost:${port}/setup and enter the setup code [A-Z2-9-]{14}$`))
    const code = line.slice(line.lastIndexOf(' ') + 1)
    const base = `http://127.0.0.1:${port}`
    // Opened on 127.0.0.1, a page sends the browser to PUBLIC_BASE_URL (localhost) first (docs/decisions.md, The first hour).
    expect((await fetch(`${base}/`, { redirect: 'manual' })).headers.get('location')).toBe(`http://localhost:${port}/`)
    const host = { host: `localhost:${port}` }
    expect((await fetch(`${base}/`, { redirect: 'manual', headers: host })).headers.get('location')).toBe('/setup')
    const done = await fetch(`${base}/setup`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        code,
        email: 'owner@shop.test',
        name: 'Owner',
        program_name: 'Shop',
        domain: 'shop.test',
        commission_type: 'percent',
        commission_rate: '20',
      }).toString(),
    })
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('Your API key')
    const cookie = done.headers.get('set-cookie')!.split(';')[0]!
    const dashboard = await fetch(`${base}/dashboard`, { headers: { cookie, ...host }, redirect: 'manual' })
    expect(dashboard.status).toBe(200)
    expect(await dashboard.text()).toContain('Shop')
  } finally {
    child.kill('SIGTERM')
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
