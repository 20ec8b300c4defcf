// Importing a program from Rewardful against a local fake of its documented API (test/imports/fake-rewardful.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifyStatement } from '../../src/domain/statement.ts'
import { type Api, startApi } from '../helpers.ts'
import { type FakeRewardful, seedRewardful, startFakeRewardful } from './fake-rewardful.ts'

const ENV = { ALLOW_PRIVATE_URLS: 'true' }

async function finished(api: Api, importId: number) {
  for (let i = 0; i < 400; i++) {
    const reply = await api.admin('GET', `/imports/${importId}`)
    if (reply.body.data.status === 'done' || reply.body.data.status === 'failed') return reply.body.data
    await Bun.sleep(25)
  }
  throw new Error('the import did not finish')
}

async function runImport(api: Api, programId: number, body: Record<string, unknown>) {
  const started = await api.admin('POST', `/programs/${programId}/imports`, body)
  expect(started.status).toBe(202)
  expect(started.body.data.status).toBe('queued')
  return finished(api, started.body.data.import_id)
}

let api: Api
let fake: FakeRewardful
beforeAll(async () => {
  api = await startApi({ env: ENV })
  fake = startFakeRewardful()
  seedRewardful(fake)
})
afterAll(async () => {
  fake.stop()
  await api.stop()
})

describe('an import from Rewardful', () => {
  test('writes partners, links kept exactly, the coupon, customers keyed by Stripe, commissions in their states and the paid payout', async () => {
    const { programId } = await api.setupProgram()
    fake.throttleOnce('/commissions', 1)
    const done = await runImport(api, programId, { source: 'rewardful', api_key: fake.secret, base_url: fake.url })
    expect(done.status).toBe('done')
    expect(done.error).toBeNull()
    expect(done.counts).toEqual({ partners: 3, links: 3, coupons: 1, customers: 2, sales: 4, commissions: 4, payouts: 1 })
    expect(done.skipped).toEqual([])

    // 429 with Retry-After: 1 was honoured: the retry came at least a second later.
    const tries = fake.requests.filter((r) => r.path === '/commissions')
    expect(tries.length).toBeGreaterThanOrEqual(2)
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(950)

    const partners = (await api.admin('GET', `/programs/${programId}/partners?limit=100`)).body.data
    const ada = (n: number) => partners.find((p: { email: string }) => p.email === `ada${n}@partners.test`)
    expect(ada(1)).toMatchObject({ name: 'Ada1 Lovelace', status: 'active', payout_method: 'paypal', payout_details: 'ada1@paypal.test' })
    expect(ada(2).status).toBe('suspended')
    const links = (await api.admin('GET', `/programs/${programId}/links?limit=100`)).body.data.map(
      (l: { short_link: string }) => l.short_link,
    )
    expect(links).toEqual(expect.arrayContaining(['ada1', 'ada2', 'ada3']))
    const coupons = (await api.admin('GET', `/programs/${programId}/coupons`)).body.data
    expect(coupons.map((c: { code: string }) => c.code)).toEqual(['ADA10'])
    const customers = (await api.admin('GET', `/programs/${programId}/customers?limit=100`)).body.data
    expect(customers.map((c: { customer_key: string }) => c.customer_key).sort()).toEqual(['rewardful:ref-2', 'stripe:cus_A1'])

    const entries = (await api.admin('GET', `/programs/${programId}/commissions?limit=100`)).body.data
    const byAmount = (cents: number) => entries.filter((e: { amount_cents: number }) => Math.abs(e.amount_cents) === cents)
    expect(byAmount(1000).map((e: { status: string }) => e.status)).toEqual(['paid'])
    expect(byAmount(2000).map((e: { status: string }) => e.status)).toEqual(['due'])
    expect(byAmount(3000).map((e: { status: string }) => e.status)).toEqual(['pending'])
    expect(byAmount(4000).map((e: { status: string }) => e.status)).toEqual(['reversed', 'reversed'])
    const payouts = (await api.admin('GET', `/programs/${programId}/payouts`)).body.data
    expect(payouts).toHaveLength(1)
    expect(payouts[0]).toMatchObject({ status: 'paid', amount_cents: 1000 })

    // The chain verifies: each imported entry is linked to its partner's chain.
    const statement = await api.admin('GET', `/programs/${programId}/partners/${ada(1).partner_id}/statements/2026-06`)
    expect(statement.status).toBe(200)
    expect(statement.body.data.count).toBe(3)
    expect(await verifyStatement(statement.body.data)).toMatchObject({ ok: true, entries: 3 })
  })

  test('old links keep working: a click by ?via= finds the kept token once the program lists via; aff still works', async () => {
    const { programId, shortLink } = await api.setupProgram()
    const click = (url: string) => api.call('POST', '/api/v1/track/click', { body: { affiliate_url: url } })
    // Before the import the program does not list via: a token reached through it is an unknown link.
    const before = await click(`https://shop.test/?via=${shortLink}`)
    expect(before.status).toBe(400)
    const fresh = startFakeRewardful()
    seedRewardful(fresh)
    for (const a of fresh.data.affiliates) for (const l of (a as { links: { token: string }[] }).links) l.token = `via-${l.token}`
    try {
      await runImport(api, programId, { source: 'rewardful', api_key: fresh.secret, base_url: fresh.url })
    } finally {
      fresh.stop()
    }
    expect(api.server.deps.database.stores.programs.findProgram(programId)?.linkParams).toEqual(['aff', 'via'])
    const byVia = await click('https://shop.test/pricing?utm_source=yt&via=via-ada1')
    expect(byVia.status).toBe(200)
    expect(typeof byVia.body.click_id).toBe('string')
    expect((await click(`https://shop.test/?aff=${shortLink}`)).status).toBe(200)
    // A parameter the program does not list answers as an unknown link.
    const other = await click('https://shop.test/?fpr=via-ada1')
    expect(other.status).toBe(400)
    expect(other.body.error.message ?? other.body.message).toBe(before.body.error.message ?? before.body.message)
  })

  test('run again, it adds nothing twice', async () => {
    const { programId } = await api.setupProgram()
    const first = await runImport(api, programId, { source: 'rewardful', api_key: fake.secret, base_url: fake.url })
    expect(first.counts.commissions).toBe(4)
    const second = await runImport(api, programId, { source: 'rewardful', api_key: fake.secret, base_url: fake.url })
    expect(second.status).toBe('done')
    expect(second.counts).toEqual({ partners: 0, links: 0, coupons: 0, customers: 0, sales: 0, commissions: 0, payouts: 0 })
    const entries = (await api.admin('GET', `/programs/${programId}/commissions?limit=100`)).body.data
    expect(entries).toHaveLength(5)
  })

  test('a dry run reports the same counts and writes nothing but its own record', async () => {
    const { programId } = await api.setupProgram()
    const dry = await runImport(api, programId, { source: 'rewardful', api_key: fake.secret, base_url: fake.url, dry_run: true })
    expect(dry).toMatchObject({ status: 'done', dry_run: true })
    // The tokens are the first test's program's links now: taken elsewhere, each skipped with its reason.
    expect(dry.counts).toEqual({ partners: 3, links: 0, coupons: 1, customers: 2, sales: 4, commissions: 4, payouts: 1 })
    expect(dry.skipped).toContainEqual({ kind: 'link', source_id: 'link-uuid-1', reason: 'the link token is taken by another link' })
    const partners = (await api.admin('GET', `/programs/${programId}/partners?limit=100`)).body.data
    expect(partners).toHaveLength(1) // the fixture's own partner only
    expect((await api.admin('GET', `/programs/${programId}/commissions`)).body.data).toEqual([])
  })

  test('a wrong source key ends the import failed, with Rewardful named and its answer', async () => {
    const { programId } = await api.setupProgram()
    const failed = await runImport(api, programId, { source: 'rewardful', api_key: 'sk_wrong', base_url: fake.url })
    expect(failed.status).toBe('failed')
    expect(failed.error).toBe('rewardful answered 401: Invalid API Secret.')
    expect(failed.counts.partners).toBe(0)
  })

  test('base_url on a private address is refused without ALLOW_PRIVATE_URLS', async () => {
    const strict = await startApi()
    try {
      const { programId } = await strict.setupProgram()
      const reply = await strict.admin('POST', `/programs/${programId}/imports`, { source: 'rewardful', api_key: 'k', base_url: fake.url })
      expect(reply.status).toBe(400)
      expect(reply.body.error.message).toBe('base_url must not point at a loopback, private, link-local or unique-local address')
      const bad = await strict.admin('POST', `/programs/${programId}/imports`, { source: 'nowhere', api_key: 'k' })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toBe('source must be one of: rewardful, tolt, firstpromoter, partnerstack')
    } finally {
      await strict.stop()
    }
  })

  test('a crash in the middle: the next start goes on where it stopped, and nothing is written twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-import-crash-'))
    const env = { ...ENV, DATABASE_PATH: join(dir, 'svc.db') }
    const big = startFakeRewardful()
    seedRewardful(big)
    for (const a of big.data.affiliates) for (const l of (a as { links: { token: string }[] }).links) l.token = `crash-${l.token}`
    // Enough commissions for several pages; the third page is held while the server stops.
    const base = big.data.commissions[1]!
    for (let n = 0; n < 250; n++) big.data.commissions.push({ ...base, id: `bulk-${n}`, amount: 100 + n })
    const held = big.hold('/commissions', 3)
    const first = await startApi({ env })
    const { programId } = await first.setupProgram()
    const started = await first.admin('POST', `/programs/${programId}/imports`, {
      source: 'rewardful',
      api_key: big.secret,
      base_url: big.url,
    })
    const importId = started.body.data.import_id
    await held.reached
    const before = (await first.admin('GET', `/imports/${importId}`)).body.data
    expect(before).toMatchObject({ status: 'running', phase: 'read' })
    expect(before.read_rows).toBeGreaterThan(200)
    await first.stop()
    held.release()
    const second = await startApi({ env })
    try {
      const done = await finished(second, importId)
      expect(done.status).toBe('done')
      expect(done.counts).toEqual({ partners: 3, links: 3, coupons: 1, customers: 2, sales: 254, commissions: 254, payouts: 1 })
      // Pages read before the stop were not read again; the page held was.
      const pages = big.requests.filter((r) => r.path === '/commissions').map((r) => r.page)
      expect(pages.filter((p) => p === 1)).toHaveLength(1)
      expect(pages.filter((p) => p === 3).length).toBeGreaterThanOrEqual(2)
      let count = 0
      for (let cursor = ''; ; ) {
        const page = await second.admin('GET', `/programs/${programId}/commissions?limit=100${cursor}`)
        count += page.body.data.length
        if (!page.body.next_cursor) break
        cursor = `&cursor=${page.body.next_cursor}`
      }
      expect(count).toBe(255)
    } finally {
      await second.stop()
      big.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('stopped while writing, the next start goes on from the last batch written: every commission once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-import-write-crash-'))
    const env = { ...ENV, DATABASE_PATH: join(dir, 'svc.db') }
    const big = startFakeRewardful()
    seedRewardful(big)
    for (const a of big.data.affiliates) for (const l of (a as { links: { token: string }[] }).links) l.token = `write-${l.token}`
    const base = big.data.commissions[1]!
    for (let n = 0; n < 1500; n++) big.data.commissions.push({ ...base, id: `w-${n}`, amount: 100 + n })
    const first = await startApi({ env })
    let second: Api | null = null
    try {
      const { programId } = await first.setupProgram()
      const started = await first.admin('POST', `/programs/${programId}/imports`, {
        source: 'rewardful',
        api_key: big.secret,
        base_url: big.url,
      })
      const importId = started.body.data.import_id
      let state = (await first.admin('GET', `/imports/${importId}`)).body.data
      while (state.status === 'queued' || (state.status === 'running' && state.phase === 'read'))
        state = (await first.admin('GET', `/imports/${importId}`)).body.data
      await first.stop()
      second = await startApi({ env })
      const done = await finished(second, importId)
      expect(done.status).toBe('done')
      expect(done.counts.commissions).toBe(1504)
      const stored = second.server.deps.database.stores
      // Every source commission is one sale, whichever process wrote it.
      let count = 0
      for (let cursor = ''; ; ) {
        const page = await second.admin('GET', `/programs/${programId}/sales?limit=100${cursor}`)
        count += page.body.data.length
        if (!page.body.next_cursor) break
        cursor = `&cursor=${page.body.next_cursor}`
      }
      expect(count).toBe(1504)
      expect(stored.imports.find(importId)?.apiKey).toBeNull()
    } finally {
      await second?.stop()
      big.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
