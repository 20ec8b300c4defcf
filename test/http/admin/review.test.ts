// docs/decisions.md, "Fraud signals and review": each signal raises its flag and holds the
// commission under fraud_review hold (the default); flag mode only flags, off checks nothing; a
// payout run skips what is held; approve and reject through the operator API; flags in every
// commission read, the CSV and the commission.held webhook. The server trusts X-Forwarded-For
// (TRUST_PROXY=true), so that each test says which IP a request comes from.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Api, Fixture } from '../../helpers.ts'
import { type Receiver, startReceiver } from '../../outbox/receiver.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'

let api: Api, k: Kit, receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
  ;({ api, k } = await trackingSetup(undefined, { TRUST_PROXY: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' }))
})
afterAll(async () => {
  await api.stop()
  await receiver.close()
})

let ipCount = 0
/** A fresh public address, so that no test's clicks count in another's burst or IP match. */
const freshIp = () => `198.51.${100 + (++ipCount >> 8)}.${ipCount & 255}`
const from = (ip: string) => ({ 'x-forwarded-for': ip })

interface Journey {
  ip?: string
  url?: string
  email?: string
}

/** A click (from `ip`, landing on `url`), a server-mode lead with `email`, and a sale: the new commission. */
async function commissionOf(f: Fixture, journey: Journey = {}) {
  const ip = journey.ip ?? freshIp()
  const url = journey.url ?? `https://shop.test/?aff=${f.shortLink}`
  const click = await k.click(f, { affiliate_url: url }, from(ip))
  expect(click.status).toBe(200)
  const key = unique('c')
  const lead = await k.lead(f, { click_id: click.body.click_id, customer_key: key, ...(journey.email ? { email: journey.email } : {}) })
  expect(lead.status).toBe(200)
  expect((await k.sale(f, { transaction_id: unique('t'), customer_key: key, amount_cents: 10000 })).status).toBe(200)
  return latest(f)
}

const latest = async (f: Fixture) => (await api.admin('GET', `/programs/${f.programId}/commissions?limit=1`)).body.data[0]

describe('each signal flags and holds the commission', () => {
  test('no signal: no flag, pending as usual', async () => {
    const f = await api.setupProgram()
    const c = await commissionOf(f, { email: 'buyer@gmail.com' })
    expect(c).toMatchObject({ flags: [], status: 'pending', review: null })
  })

  test('self_referral: the customer is the partner, by address or company domain', async () => {
    const f = await api.setupProgram()
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { email: 'Ann@Acme-Corp.com' })
    expect(await commissionOf(f, { email: 'ann@acme-corp.com' })).toMatchObject({
      flags: ['self_referral'],
      status: 'held',
      review: 'held',
    })
    expect((await commissionOf(f, { email: 'bob@acme-corp.com' })).flags).toEqual(['self_referral'])
    expect((await commissionOf(f, { email: 'bob@other-corp.com' })).flags).toEqual([])
  })

  test('same_ip: the customer clicked from an IP the partner applied from', async () => {
    const f = await api.setupProgram({ partner_signup: 'open' })
    const ip = freshIp()
    const link = unique('jo')
    const email = `${unique('jo')}@jo.test`
    const applied = await api.call('POST', `/join/${f.programId}`, {
      body: { name: 'Jo', email, short_link: link },
      headers: from(ip),
    })
    expect(applied.status).toBe(202)
    const partnerId = (await api.admin('GET', `/programs/${f.programId}/partners?q=${encodeURIComponent(email)}`)).body.data[0].partner_id
    const jo = { ...f, partnerId, shortLink: link }
    expect((await commissionOf(jo, { ip })).flags).toEqual(['same_ip'])
    expect((await commissionOf(jo)).flags).toEqual([])
    // The partner's IP is kept as a keyed hash, never raw.
    const stored = k.count('SELECT count(*) AS n FROM partner_ips WHERE partner_id = ? AND ip_hash = ?', jo.partnerId, ip)
    expect(stored).toBe(0)
    expect(k.count('SELECT count(*) AS n FROM partner_ips WHERE partner_id = ?', jo.partnerId)).toBe(1)
  })

  test('same_ip: a browser-mode lead from an IP the partner signed in from', async () => {
    const f = await api.setupProgram({ lead_auth: 'browser_allowed' })
    const partnerIp = freshIp()
    const link = (await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)).body.data.url
    const path = new URL(link).pathname
    const origin = new URL(api.server.deps.config.publicBaseUrl).origin
    const signedIn = await fetch(api.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...from(partnerIp), origin, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(signedIn.status).toBe(303)
    const click = await k.click(f, {}, from(freshIp()))
    const lead = await k.lead(null, { click_id: click.body.click_id }, { ...from(partnerIp), origin: 'https://shop.test' })
    expect(lead.status).toBe(200)
    expect((await k.sale(f, { transaction_id: unique('t'), click_id: click.body.click_id })).status).toBe(200)
    expect((await latest(f)).flags).toEqual(['same_ip'])
  })

  test('disposable_email: the customer’s address is at a throwaway service', async () => {
    const f = await api.setupProgram()
    expect((await commissionOf(f, { email: 'x@mailinator.com' })).flags).toEqual(['disposable_email'])
  })

  test('paid_ads: the landing URL carries an ad-click id', async () => {
    const f = await api.setupProgram()
    for (const id of ['gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'ttclid', 'twclid', 'li_fat_id'])
      expect((await commissionOf(f, { url: `https://shop.test/?aff=${f.shortLink}&${id}=abc` })).flags).toEqual(['paid_ads'])
    expect((await commissionOf(f, { url: `https://shop.test/?aff=${f.shortLink}&utm_source=google` })).flags).toEqual([])
  })

  test('click_burst: over 50 clicks on the link from the click’s IP in the hour before it', async () => {
    const f = await api.setupProgram()
    const ip = freshIp()
    for (let i = 0; i < 50; i++) expect((await k.click(f, {}, from(ip))).status).toBe(200)
    // 50 clicks before it are not over 50: no flag; with 51 before it, the next click is in a burst.
    expect((await commissionOf(f, { ip })).flags).toEqual([])
    expect((await commissionOf(f, { ip })).flags).toEqual(['click_burst'])
    // Another IP on the same link, and the same IP an hour and more later, are not in the burst.
    expect((await commissionOf(f)).flags).toEqual([])
    api.clock.advance(2 * 3_600_000)
    expect((await commissionOf(f, { ip })).flags).toEqual([])
  })

  test('a returning visitor’s burst marks the click its sale is attributed by', async () => {
    const f = await api.setupProgram()
    const ip = freshIp()
    const first = (await k.click(f, {}, from(ip))).body.click_id
    for (let i = 0; i < 52; i++) expect((await k.click(f, { click_id: first }, from(ip))).body.click_id).toBe(first)
    const key = unique('c')
    await k.lead(f, { click_id: first, customer_key: key })
    await k.sale(f, { transaction_id: unique('t'), customer_key: key })
    expect((await latest(f)).flags).toEqual(['click_burst'])
  })

  test('several signals: every flag, in order', async () => {
    const f = await api.setupProgram()
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { email: 'me@mailinator.com' })
    const c = await commissionOf(f, { email: 'me@mailinator.com', url: `https://shop.test/?fbclid=1&aff=${f.shortLink}` })
    expect(c.flags).toEqual(['self_referral', 'disposable_email', 'paid_ads'])
  })
})

describe('fraud_review modes', () => {
  test('the default is hold; flag flags and pays; off checks nothing', async () => {
    const held = await api.setupProgram({ holding_period_days: 0 })
    expect((await api.admin('GET', `/programs/${held.programId}`)).body.data[0].fraud_review).toBe('hold')
    const flagged = await api.setupProgram({ holding_period_days: 0, fraud_review: 'flag' })
    const off = await api.setupProgram({ holding_period_days: 0 })
    expect((await api.admin('PATCH', `/programs/${off.programId}`, { fraud_review: 'off' })).body.data.fraud_review).toBe('off')
    const ad = (f: Fixture) => ({ url: `https://shop.test/?aff=${f.shortLink}&gclid=1` })
    expect(await commissionOf(held, ad(held))).toMatchObject({ flags: ['paid_ads'], status: 'held' })
    expect(await commissionOf(flagged, ad(flagged))).toMatchObject({ flags: ['paid_ads'], status: 'due', review: null })
    expect(await commissionOf(off, ad(off))).toMatchObject({ flags: [], status: 'due', review: null })
    for (const f of [flagged, off]) expect((await api.admin('POST', `/programs/${f.programId}/payouts`, {})).body.data).toHaveLength(1)
    expect((await api.admin('POST', `/programs/${held.programId}/payouts`, {})).body.data).toEqual([])
  })

  test('an unknown mode is refused with the field named', async () => {
    const bad = await api.admin('POST', '/programs', {
      account_id: 1,
      name: 'x',
      domain: 'x.test',
      commission_type: 'percent',
      commission_rate: 1,
      fraud_review: 'maybe',
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toBe('fraud_review must be hold, flag or off')
  })
})

describe('review', () => {
  const heldIn = async (f: Fixture) => {
    const c = await commissionOf(f, { url: `https://shop.test/?aff=${f.shortLink}&gclid=1` })
    expect(c.status).toBe('held')
    return c
  }

  test('a payout run skips a held commission; approved, it is due by its age and paid in the next run', async () => {
    const f = await api.setupProgram({ holding_period_days: 7 })
    const c = await heldIn(f)
    api.clock.advance(8 * 86_400_000)
    expect((await api.admin('POST', `/programs/${f.programId}/payouts`, {})).body.data).toEqual([])
    const approved = await api.admin('POST', `/commissions/${c.commission_id}/approve`)
    expect(approved.status).toBe(200)
    expect(approved.body.data).toMatchObject({ commission_id: c.commission_id, status: 'due', review: 'approved', flags: ['paid_ads'] })
    expect(approved.body.data.reviewed_at).toBe(new Date(api.clock.now()).toISOString())
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`, {})
    expect(run.body.data).toMatchObject([{ amount_cents: c.amount_cents }])
  })

  test('approved within the holding period, it is pending until the period ends, counted from its creation', async () => {
    const f = await api.setupProgram({ holding_period_days: 7 })
    const c = await heldIn(f)
    api.clock.advance(3 * 86_400_000)
    expect((await api.admin('POST', `/commissions/${c.commission_id}/approve`)).body.data.status).toBe('pending')
    api.clock.advance(4 * 86_400_000)
    expect((await latest(f)).status).toBe('due')
  })

  test('reject writes a reversal with the reason kept: reversed, never paid; a later refund takes nothing more', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const c = await heldIn(f)
    const rejected = await api.admin('POST', `/commissions/${c.commission_id}/reject`, { reason: ' Own purchase ' })
    expect(rejected.status).toBe(200)
    expect(rejected.body.data).toMatchObject({ status: 'reversed', review: 'rejected', review_reason: 'Own purchase' })
    const reversal = await latest(f)
    expect(reversal).toMatchObject({ kind: 'reversal', amount_cents: -c.amount_cents, sale_id: c.sale_id, status: 'reversed', flags: [] })
    expect((await api.admin('POST', `/programs/${f.programId}/payouts`, {})).body.data).toEqual([])
    const sale = (await api.admin('GET', `/programs/${f.programId}/sales?limit=1`)).body.data[0]
    expect((await k.refund(f, { transaction_id: sale.transaction_id })).status).toBe(200)
    expect(k.count('SELECT count(*) AS n FROM commissions WHERE sale_id = ?', c.sale_id)).toBe(2)
  })

  test('reject without a body; a refund of a held commission reverses it, and it is no longer held', async () => {
    const f = await api.setupProgram()
    const a = await heldIn(f)
    expect(
      (await api.call('POST', `/api/v1/admin/commissions/${a.commission_id}/reject`, { token: 'test-admin-token-0123456789' })).status,
    ).toBe(200)
    const b = await heldIn(f)
    const sale = (await api.admin('GET', `/programs/${f.programId}/sales?limit=1`)).body.data[0]
    await k.refund(f, { transaction_id: sale.transaction_id })
    expect((await api.admin('GET', `/programs/${f.programId}/commissions?status=held`)).body.data).toEqual([])
    const entries = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
    // It waits for no review any more; its flags stay.
    expect(entries.find((e: { commission_id: number }) => e.commission_id === b.commission_id)).toMatchObject({
      status: 'reversed',
      review: null,
      flags: ['paid_ads'],
    })
    const again = await api.admin('POST', `/commissions/${b.commission_id}/approve`)
    expect(again.status).toBe(409)
  })

  test('404 for an unknown commission, 409 for one not held, 400 for a bad reason', async () => {
    const f = await api.setupProgram()
    const plain = await commissionOf(f)
    const held = await heldIn(f)
    for (const action of ['approve', 'reject']) {
      const unknown = await api.admin('POST', `/commissions/99999999/${action}`)
      expect({ status: unknown.status, message: unknown.body.error.message }).toEqual({ status: 404, message: 'Commission not found' })
      expect((await api.admin('POST', `/commissions/abc/${action}`)).status).toBe(404)
      const notHeld = await api.admin('POST', `/commissions/${plain.commission_id}/${action}`)
      expect({ status: notHeld.status, message: notHeld.body.error.message, data: notHeld.body.data }).toEqual({
        status: 409,
        message: 'Commission is not held for review',
        data: null,
      })
    }
    const bad = await api.admin('POST', `/commissions/${held.commission_id}/reject`, { reason: 'x'.repeat(501) })
    expect({ status: bad.status, message: bad.body.error.message }).toEqual({
      status: 400,
      message: 'reason must be a text of at most 500 characters',
    })
    expect((await api.admin('POST', `/commissions/${held.commission_id}/approve`)).status).toBe(200)
    expect((await api.admin('POST', `/commissions/${held.commission_id}/approve`)).status).toBe(409)
    expect((await api.admin('POST', `/commissions/${held.commission_id}/reject`)).status).toBe(409)
  })

  test('flags in the CSV, ?status=held, and the commission.held webhook', async () => {
    const f = await api.setupProgram()
    const made = await api.admin('POST', `/programs/${f.programId}/webhooks`, { url: receiver.url, events: ['commission.held'] })
    const start = receiver.hits.length
    await commissionOf(f)
    const c = await commissionOf(f, { email: 'q@mailinator.com', url: `https://shop.test/?aff=${f.shortLink}&msclkid=1` })
    const held = (await api.admin('GET', `/programs/${f.programId}/commissions?status=held`)).body.data
    expect(held.map((h: { commission_id: number }) => h.commission_id)).toEqual([c.commission_id])
    const csv = await api.call('GET', `/api/v1/admin/programs/${f.programId}/commissions.csv`, { token: 'test-admin-token-0123456789' })
    expect(csv.body).toContain(',held,disposable_email paid_ads,false')
    expect(csv.body).toContain(',pending,,false')
    const hits = (await receiver.waitFor((h) => h.length - start >= 1)).slice(start)
    expect(hits.map((h) => h.json.type)).toEqual(['commission.held'])
    expect((receiver.verify(hits[0]!, made.body.data.secret) as { data: unknown }).data).toMatchObject({
      commission_id: c.commission_id,
      status: 'held',
      flags: ['disposable_email', 'paid_ads'],
      program_id: f.programId,
    })
  })
})
