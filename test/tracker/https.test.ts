// The Secure flag: set when the page is served over HTTPS (docs/api.md, cookie rules). The shop
// runs on a throwaway self-signed certificate, which Chromium accepts through
// --ignore-certificate-errors.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clicked, describeBrowser, watchedPage } from './browser.ts'
import { startWorld, type World } from './setup.ts'

function selfSigned() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'))
  const out = Bun.spawnSync([
    'openssl',
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=shop.test',
    '-addext',
    'subjectAltName=DNS:*.shop.test,DNS:shop.test',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ])
  if (!out.success) throw new Error(`openssl failed: ${out.stderr}`)
  const tls = { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') }
  rmSync(dir, { recursive: true })
  return tls
}

describeBrowser('tracker over https', () => {
  let world: World
  beforeAll(async () => {
    world = await startWorld(selfSigned())
  })
  afterAll(() => world?.stop())

  test('a page served over HTTPS gets a Secure cookie on the root domain', async () => {
    const context = await world.context()
    const { page, errors } = await watchedPage(context)
    const landing = world.shop.url('secure.shop.test', `/?aff=${world.backend.links.alice}`)
    expect(landing).toStartWith('https://')
    await clicked(page, () => page.goto(landing))
    const cookie = (await context.cookies()).find((c) => c.name === 'svc_click_id')
    expect(cookie).toMatchObject({ domain: '.shop.test', secure: true, sameSite: 'Lax' })
    expect(errors).toEqual([])
    await context.close()
  })
})
