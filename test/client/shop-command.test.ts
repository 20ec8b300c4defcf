// examples/shop/README.md's command, as written, from the repository with no Bun on PATH: the
// shop starts, adds its origin to the program's allowed_origins, and a browser-mode click from
// that origin is then accepted.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ADMIN_TOKEN, startApi, type Api, type Fixture } from '../helpers.ts'

const ROOT = join(import.meta.dir, '..', '..')
let api: Api, f: Fixture
beforeAll(async () => {
  api = await startApi()
  f = await api.setupProgram({ allowed_origins: ['https://kept.example'] })
})
afterAll(() => api.stop())

/** `npm run shop` with only the system's PATH (no Bun on it); resolves once the shop says where it is. */
async function npmRunShop(env: Record<string, string>) {
  // setsid: npm and the shop it starts in a process group of their own, stopped together.
  const proc = Bun.spawn(['setsid', 'npm', 'run', '--silent', 'shop'], {
    cwd: ROOT,
    env: { PATH: '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const reader = proc.stdout.getReader()
  let out = ''
  while (!out.includes('shop on ')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`npm run shop ended: ${out}${await new Response(proc.stderr).text()}`)
    out += new TextDecoder().decode(value)
  }
  return { out, stop: () => (process.kill(-proc.pid, 'SIGTERM'), proc.exited) }
}

test('npm run shop starts the shop without Bun on PATH and allows its own origin in the program', async () => {
  // A port the system just handed out and took back, rather than a random one that may be in use.
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port
  probe.stop(true)
  const origin = `http://localhost:${port}`
  const shop = await npmRunShop({
    SVC_URL: api.url,
    SVC_PROGRAM_ID: String(f.programId),
    SVC_API_KEY: f.apiKey,
    SVC_ADMIN_TOKEN: ADMIN_TOKEN,
    PORT: String(port),
  })
  try {
    expect(shop.out).toContain(`Added ${origin} to the program's allowed_origins.`)
    const program = (await api.admin('GET', `/programs/${f.programId}`)).body.data[0]
    expect(program.allowed_origins).toEqual(['https://kept.example', origin])
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text()
    expect(page).toContain(`<script src="${api.url}/tracker.js" data-svc-program-id="${f.programId}" defer></script>`)
    const click = await api.call('POST', '/api/v1/track/click', {
      headers: { origin },
      body: { affiliate_url: `${origin}/?aff=${f.shortLink}` },
    })
    expect(click.status).toBe(200)
  } finally {
    await shop.stop()
  }
})
