// The client package from the outside, as an app developer gets it: `npm pack` (which builds
// it), the tarball installed offline into a temporary plain-Node project, compiled against by a
// NodeNext TypeScript project, run against the real server from Node, Deno and Bun, and bundled
// for the browser. Nothing here imports src/client: only the installed tarball is used.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApi, type Api, type Fixture } from '../helpers.ts'
import { kit, roomy } from '../http/track/kit.ts'

const ROOT = join(import.meta.dir, '..', '..')
const BIN = join(ROOT, 'node_modules', '.bin')
const PACKAGE = join(ROOT, 'src', 'client')

let dir: string, app: string, tarball: string, api: Api, f: Fixture

/** Runs a command to completion; throws with its output when it fails. */
async function run(cmd: string[], cwd: string, env: Record<string, string> = {}) {
  const child = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}\n${stdout}\n${stderr}`)
  return stdout
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-client-pkg-'))
  await run(['npm', 'pack', '--silent', '--pack-destination', dir], PACKAGE)
  tarball = join(dir, readdirSync(dir).find((name) => name.endsWith('.tgz'))!)
  app = join(dir, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'shop-backend', private: true, type: 'module' }))
  await run(['npm', 'install', '--offline', '--no-audit', '--no-fund', '--silent', tarball], app)
  api = await startApi(roomy)
  f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
}, 60_000)

afterAll(async () => {
  await api?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the packed tarball', () => {
  test('holds ESM JavaScript and .d.ts only, and installs with no dependency', () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', '@svc', 'client', 'package.json'), 'utf8'))
    expect(manifest).toMatchObject({ type: 'module', sideEffects: false, peerDependenciesMeta: { react: { optional: true } } })
    expect(manifest.dependencies).toBeUndefined()
    // Only our package: react is an optional peer, so npm does not pull it in.
    expect(readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@svc'])
    const files = readdirSync(join(app, 'node_modules', '@svc', 'client', 'dist'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
    expect(files.filter((name) => !/\.(js|d\.ts)$/.test(name))).toEqual([])
    expect(files).toContain('server.d.ts')
    expect(files).toContain('statement.js')
  })

  test("type-checks in a NodeNext TypeScript project, and the client's answer types equal the server's schemas", async () => {
    // The consumer brings React's types for the react entry, as an app on React would.
    mkdirSync(join(app, 'node_modules', '@types'), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules', '@types', 'react'), join(app, 'node_modules', '@types', 'react'))
    symlinkSync(join(ROOT, 'node_modules', 'csstype'), join(app, 'node_modules', 'csstype'))
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          jsx: 'react-jsx',
          types: [],
          lib: ['ES2022', 'DOM'],
        },
        files: ['check.mts'],
      }),
    )
    writeFileSync(
      join(app, 'check.mts'),
      `
import { Svc, readClickId, type Result, type SaleData } from "@svc/client/server"
import { loadSvc, type SvcApi } from "@svc/client/browser"
import { SvcProvider, useSvc } from "@svc/client/react"
const svc = new Svc({ apiKey: "k", baseUrl: "https://svc.example" })
const sale = await svc.trackSale({ customerExternalId: "c", amount: 4900, invoiceId: "inv", currency: "EUR", provider: "paddle", occurredAt: new Date(), providerPaymentId: "p", livemode: true })
if (sale.ok && !("duplicate" in sale.data)) { const id: number = sale.data.sale_id; const c: SaleData["commission"] = sale.data.commission; void id; void c }
// Any of the program's ISO 4217 codes (GBP once the owner lists it); a number is not a code.
void svc.trackSale({ customerExternalId: "c", amount: 1, invoiceId: "i", currency: "GBP" })
// @ts-expect-error a currency is its ISO 4217 code, not its number
void svc.trackSale({ customerExternalId: "c", amount: 1, invoiceId: "i", currency: 826 })
const lead: Result<unknown> = await svc.trackLead({ customerExternalId: "c", clickId: readClickId("svc_click_id=x") })
const api: Promise<SvcApi> = loadSvc({ baseUrl: "https://svc.example", programId: 1 })
const element = SvcProvider({ baseUrl: "https://svc.example", programId: 1 })
void [lead, api, element, useSvc]
`,
    )
    await run([join(BIN, 'tsc'), '-p', 'tsconfig.json'], app)
    // test/client/answers-match.ts: a compile error when src/client/answers.ts drifts from src/http.
    await run([join(BIN, 'tsc'), '-p', join(import.meta.dir, 'tsconfig.answers.json')], ROOT)
  })

  test('trackLead, trackSale (currency, provider, occurred_at) and trackRefund work against the real server from Node, Deno and Bun', async () => {
    const k = kit(api)
    const occurredAt = new Date(api.clock.now() - 3_600_000).toISOString()
    writeFileSync(
      join(app, 'flow.mjs'),
      `
import { Svc, readClickId } from "@svc/client/server"
const [baseUrl, apiKey, clickId, tag, occurredAt] = globalThis.Deno ? Deno.args : process.argv.slice(2)
const svc = new Svc({ apiKey, baseUrl })
const customerExternalId = "cust-" + tag, invoiceId = "inv-" + tag
const lead = await svc.trackLead({ customerExternalId, clickId: readClickId("theme=dark; svc_click_id=" + clickId), email: tag + "@shop.test" })
const sale = { customerExternalId, amount: 4900, invoiceId, currency: "eur", provider: "paddle", providerPaymentId: "pay-" + tag, occurredAt: new Date(occurredAt) }
const first = await svc.trackSale(sale)
const again = await svc.trackSale(sale)
const refund = await svc.trackRefund({ invoiceId, reason: "chargeback" })
console.log(JSON.stringify({ lead, first, again, refund }))
`,
    )
    const runtimes: Record<string, string[]> = {
      node: ['node', 'flow.mjs'],
      deno: [join(BIN, 'deno'), 'run', '--quiet', '--allow-net', '--node-modules-dir=manual', 'flow.mjs'],
      bun: [join(BIN, 'bun'), 'flow.mjs'],
    }
    const outputs = await Promise.all(
      Object.entries(runtimes).map(async ([name, cmd]) => {
        const clickId = await k.clickId(f)
        const out = await run([...cmd, api.url, f.apiKey, clickId, name, occurredAt], app, { NO_COLOR: '1' })
        return [name, JSON.parse(out)] as const
      }),
    )
    for (const [name, { lead, first, again, refund }] of outputs) {
      expect(lead).toEqual({ ok: true, status: 200, data: { customer_id: expect.any(Number), status: 'lead' } })
      expect(first).toMatchObject({
        ok: true,
        status: 200,
        data: {
          transaction_id: `inv-${name}`,
          amount_cents: 4900,
          currency: 'EUR',
          commission: { partner_id: f.partnerId, amount_cents: 490 },
        },
      })
      expect(again).toEqual({
        ok: true,
        status: 409,
        data: { duplicate: true, sale_id: first.data.sale_id, transaction_id: `inv-${name}` },
      })
      expect(refund).toEqual({
        ok: true,
        status: 200,
        data: { sale_id: first.data.sale_id, transaction_id: `inv-${name}`, status: 'charged_back' },
      })
      const stored = (await api.admin('GET', `/sales/${first.data.sale_id}`)).body.data[0]
      expect(stored).toMatchObject({ currency: 'EUR', provider: 'paddle', provider_payment_id: `pay-${name}`, occurred_at: occurredAt })
    }
  }, 30_000)

  test('the browser entry bundles for the browser without server code, and an unused export of ./server is shaken off', async () => {
    writeFileSync(
      join(app, 'page.mjs'),
      `import { loadSvc } from "@svc/client/browser"\nloadSvc({ baseUrl: "https://svc.example", programId: 1 })\n`,
    )
    writeFileSync(join(app, 'cookie.mjs'), `import { readClickId } from "@svc/client/server"\nconsole.log(readClickId(document.cookie))\n`)
    await run([join(BIN, 'bun'), 'build', '--target=browser', '--minify', 'page.mjs', 'cookie.mjs', '--outdir', 'out'], app)
    const page = readFileSync(join(app, 'out', 'page.js'), 'utf8')
    expect(page).toContain('/tracker.js')
    for (const server of ['track/sale', 'track/lead', 'Bearer', 'authorization', 'svc_click_id', 'react'])
      expect(page).not.toContain(server)
    const cookie = readFileSync(join(app, 'out', 'cookie.js'), 'utf8')
    expect(cookie).toContain('svc_click_id')
    expect(cookie).not.toContain('track/sale')
  })
})
