// docs/decisions.md, "Safety, third round": GET /verify checks a statement in the browser with the
// same verifier as `svc verify`, asks no host, and works as a saved copy offline.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildVerifyScript } from '../../../web/build.ts'
import { verifyScript } from '../../../src/http/pages/verify-script.gen.ts'
import type { Statement } from '../../../src/domain/statement.ts'
import { forgedFrom } from '../admin/forged-statement.ts'
import { describeBrowser, launch } from '../../tracker/browser.ts'
import type { Api, Fixture } from '../../helpers.ts'
import { trackingSetup, type Kit, unique } from '../track/kit.ts'

let api: Api, k: Kit, dir: string
beforeAll(async () => {
  ;({ api, k } = await trackingSetup())
  dir = mkdtempSync(join(tmpdir(), 'svc-verify-'))
})
afterAll(async () => {
  await api.stop()
  rmSync(dir, { recursive: true, force: true })
})

const month = () => new Date(api.clock.now()).toISOString().slice(0, 7)

/** A partner with one commissioned sale this month, and their signed statement. */
async function statement(): Promise<{ f: Fixture; s: Statement }> {
  const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
  const customer = unique('cust')
  await k.customer(f, customer)
  expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: customer, amount_cents: 10_000 })).status).toBe(200)
  const reply = await api.admin('GET', `/programs/${f.programId}/partners/${f.partnerId}/statements/${month()}`)
  return { f, s: reply.body.data }
}

describe('/verify', () => {
  test('the embedded script is the build of web/verify.ts (run `bun web/build.ts` after changing it)', async () => {
    expect(verifyScript).toBe(await buildVerifyScript())
  })

  test('is one self-contained page with its own CSP; the key it names is readable from any origin', async () => {
    const reply = await fetch(`${api.url}/verify`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src https:; img-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
    )
    const text = await reply.text()
    expect(text).not.toMatch(/<(script|link|img)[^>]+(src|href)=/)
    // A saved copy keeps its policy in the page itself.
    expect(text).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`)
    const key = await fetch(`${api.url}/.well-known/svc-ledger-key`)
    expect(key.headers.get('access-control-allow-origin')).toBe('*')
    expect(text).toContain(JSON.stringify(await key.json()).replaceAll('"', '&quot;'))
  })
})

describeBrowser('/verify in Chromium', () => {
  test('verifies a real statement, refuses a forged one as signed by another key, and works saved and offline', async () => {
    const { s } = await statement()
    const real = join(dir, 'real.json')
    const forged = join(dir, 'forged.json')
    writeFileSync(real, JSON.stringify(s))
    writeFileSync(forged, JSON.stringify(forgedFrom(s)))
    const browser = await launch()
    try {
      const context = await browser.newContext()
      const foreign: string[] = []
      context.on('request', (r) => {
        const url = new URL(r.url())
        if (!['data:', 'file:'].includes(url.protocol) && url.host !== new URL(api.url).host) foreign.push(r.url())
      })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(String(e)))
      const check = async (file: string) => {
        await page.setInputFiles('#statement', file)
        await page.click('button')
        await page.waitForFunction(() => document.getElementById('verdict')!.textContent !== '')
        const verdict = { text: await page.textContent('#verdict'), ok: (await page.getAttribute('#verdict', 'class')) === 'ok' }
        await page.evaluate(() => {
          document.getElementById('verdict')!.textContent = ''
        })
        return verdict
      }
      await page.goto(`${api.url}/verify`)
      expect(await check(real)).toEqual({ ok: true, text: expect.stringContaining('Verified: 1 entry of') })
      expect(await check(forged)).toEqual({ ok: false, text: 'Does not verify: signed by another key.' })
      await page.fill('#key', '')
      expect(await check(forged)).toEqual({ ok: false, text: expect.stringContaining('the signing key was not checked') })

      // Saved as the browser saves it, opened from disk with the network cut off: still checks.
      const saved = join(dir, 'verify.html')
      writeFileSync(saved, await (await fetch(`${api.url}/verify`)).text())
      await context.setOffline(true)
      await page.goto(`file://${saved}`)
      expect(await check(real)).toEqual({ ok: true, text: expect.stringContaining('signed by the expected key') })
      expect(await check(forged)).toEqual({ ok: false, text: 'Does not verify: signed by another key.' })
      expect(errors).toEqual([])
      expect(foreign).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
