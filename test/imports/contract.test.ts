// One contract for every source (README, Architecture): each importer runs
// against a local fake of its documented API (test/imports/fake-sources.ts) through the same cases:
// pages, the mapping, a 429 with Retry-After, a wrong key, a second run, and a crash in the middle.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifyStatement } from '../../src/domain/statement.ts'
import { IMPORT_SOURCES, type ImportSource } from '../../src/domain/imports.ts'
import { type Api, startApi } from '../helpers.ts'
import { startFake, type World, world } from './fake-sources.ts'

const ENV = { ALLOW_PRIVATE_URLS: 'true' }
// Past one page of every source (PartnerStack's pages hold 250).
const BULK = 260

async function finished(api: Api, importId: number) {
  for (let i = 0; i < 1200; i++) {
    const reply = await api.admin('GET', `/imports/${importId}`)
    if (reply.body.data.status === 'done' || reply.body.data.status === 'failed') return reply.body.data
    await Bun.sleep(25)
  }
  throw new Error('the import did not finish')
}

async function all(api: Api, path: string) {
  const rows = []
  for (let cursor = ''; ; ) {
    const page = await api.admin('GET', `${path}?limit=100${cursor}`)
    rows.push(...page.body.data)
    if (!page.body.next_cursor) return rows
    cursor = `&cursor=${page.body.next_cursor}`
  }
}

const otherKey: Record<ImportSource, string> = {
  rewardful: 'rewardful:ref-2',
  tolt: 'tolt:cust_2',
  firstpromoter: 'firstpromoter:2',
  partnerstack: 'partnerstack:cust_2',
}
const param: Record<ImportSource, string> = { rewardful: 'via', tolt: 'ref', firstpromoter: 'fpr', partnerstack: 'ps_partner_key' }
/** The page key of the second page of commissions: a page number, or the last id of the first page. */
const secondPage = (source: ImportSource, w: World) =>
  source === 'tolt' ? `comm_${w.commissions[99]!.n}` : source === 'partnerstack' ? `rew_${w.commissions[249]!.n}` : '2'

let api: Api
beforeAll(async () => {
  api = await startApi({ env: ENV })
})
afterAll(() => api.stop())

for (const source of IMPORT_SOURCES) {
  describe(`the ${source} importer`, () => {
    test('reads every page, maps each row, honours Retry-After, and a second run adds nothing', async () => {
      const w = world(BULK)
      const fake = startFake(source, w)
      try {
        const { programId } = await api.setupProgram()
        fake.throttleOnce(fake.commissionsPath, 1)
        const body = { source, base_url: fake.url, ...fake.credentials }
        const started = await api.admin('POST', `/programs/${programId}/imports`, body)
        expect(started.status).toBe(202)
        const done = await finished(api, started.body.data.import_id)
        expect({ status: done.status, error: done.error, skipped: done.skipped }).toEqual({ status: 'done', error: null, skipped: [] })
        expect(done.counts).toEqual({
          partners: 3,
          links: 3,
          coupons: source === 'partnerstack' ? 0 : 1,
          customers: 2,
          sales: 4 + BULK,
          commissions: 4 + BULK,
          payouts: 1,
        })
        const tries = fake.requests.filter(
          (r) => r.path === fake.commissionsPath && r.page === fake.requests.find((q) => q.path === fake.commissionsPath)!.page,
        )
        expect(tries.length).toBe(2)
        expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(950)

        const partners = await all(api, `/programs/${programId}/partners`)
        const ada = (n: number) => partners.find((p: { email: string }) => p.email === `ada${n}@partners.test`)
        expect(ada(1)).toMatchObject({
          status: 'active',
          ...(source === 'partnerstack' ? {} : { payout_method: 'paypal', payout_details: 'ada1@paypal.test' }),
        })
        expect(ada(2).status).toBe(source === 'partnerstack' ? 'active' : 'suspended')
        const links = (await all(api, `/programs/${programId}/links`)).map((l: { short_link: string }) => l.short_link)
        expect(links).toEqual(expect.arrayContaining(w.partners.map((p) => p.token)))
        const customers = (await all(api, `/programs/${programId}/customers`)).map((c: { customer_key: string }) => c.customer_key)
        expect(customers.sort()).toEqual([otherKey[source], `stripe:cus_${w.tag}1`].sort())
        const entries = await all(api, `/programs/${programId}/commissions`)
        const statusOf = (cents: number) =>
          entries.filter((e: { amount_cents: number }) => Math.abs(e.amount_cents) === cents).map((e: { status: string }) => e.status)
        expect([statusOf(1000), statusOf(2000), statusOf(3000), statusOf(4000)]).toEqual([
          ['paid'],
          ['due'],
          ['pending'],
          ['reversed', 'reversed'],
        ])
        const payouts = (await api.admin('GET', `/programs/${programId}/payouts`)).body.data
        expect(payouts.map((p: { status: string; amount_cents: number }) => [p.status, p.amount_cents])).toEqual([['paid', 1000]])
        const statement = await api.admin('GET', `/programs/${programId}/partners/${ada(1).partner_id}/statements/2026-06`)
        expect(await verifyStatement(statement.body.data)).toMatchObject({ ok: true, entries: 3 })

        expect(api.server.deps.database.stores.programs.findProgram(programId)?.linkParams).toEqual(['aff', param[source]])
        // The source's link parameter finds the kept token (PartnerStack's base64-encoded).
        const value = source === 'partnerstack' ? btoa(w.partners[0]!.token) : w.partners[0]!.token
        const click = await api.call('POST', '/api/v1/track/click', {
          body: { affiliate_url: `https://shop.test/?${param[source]}=${value}` },
        })
        expect(click.status).toBe(200)

        const again = await api.admin('POST', `/programs/${programId}/imports`, body)
        const second = await finished(api, again.body.data.import_id)
        expect(second.status).toBe('done')
        expect(Object.values(second.counts)).toEqual([0, 0, 0, 0, 0, 0, 0])
        expect(await all(api, `/programs/${programId}/commissions`)).toHaveLength(entries.length)
      } finally {
        fake.stop()
      }
    })

    test('a wrong key ends the import failed, naming the source and its answer', async () => {
      const fake = startFake(source, world(0))
      try {
        const { programId } = await api.setupProgram()
        const started = await api.admin('POST', `/programs/${programId}/imports`, { source, base_url: fake.url, ...fake.wrongKey })
        const failed = await finished(api, started.body.data.import_id)
        expect({ status: failed.status, error: failed.error }).toEqual({ status: 'failed', error: fake.wrongKeyText })
        expect(Object.values(failed.counts)).toEqual([0, 0, 0, 0, 0, 0, 0])
      } finally {
        fake.stop()
      }
    })

    test('a crash in the middle: the next start goes on from the page it stopped at, nothing twice', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-import-crash-'))
      const env = { ...ENV, DATABASE_PATH: join(dir, 'svc.db') }
      const w = world(BULK)
      const fake = startFake(source, w)
      const held = fake.hold(fake.commissionsPath, secondPage(source, w))
      const first = await startApi({ env })
      let second: Api | null = null
      try {
        const { programId } = await first.setupProgram()
        const started = await first.admin('POST', `/programs/${programId}/imports`, { source, base_url: fake.url, ...fake.credentials })
        await held.reached
        expect((await first.admin('GET', `/imports/${started.body.data.import_id}`)).body.data).toMatchObject({
          status: 'running',
          phase: 'read',
        })
        await first.stop()
        held.release()
        second = await startApi({ env })
        const done = await finished(second, started.body.data.import_id)
        expect(done.status).toBe('done')
        expect(done.counts.commissions).toBe(4 + BULK)
        const firstPages = fake.requests.filter(
          (r) => r.path === fake.commissionsPath && r.page === (source === 'tolt' || source === 'partnerstack' ? '' : '1'),
        )
        expect(firstPages).toHaveLength(1)
        expect(await all(second, `/programs/${programId}/commissions`)).toHaveLength(5 + BULK)
      } finally {
        await second?.stop()
        fake.stop()
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
}
