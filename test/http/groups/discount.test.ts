// The two-sided discount (docs/decisions.md, Groups): GET /api/v1/programs/me/discount by click_id
// or customer_key with a program key (a track key too), and the server client's getDiscount()
// against the real server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Svc } from '../../../src/client/server.ts'
import { type Api, days, expectFailure, type Fixture } from '../../helpers.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'

let api: Api
let k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const ask = (f: Fixture, query: string, token = f.apiKey) => api.call('GET', `/api/v1/programs/me/discount?${query}`, { token })

/** A program whose partner is in a group giving INFL20, with a name. */
async function discounted() {
  const f = await api.setupProgram({ attribution_window_days: 30 })
  const made = await api.admin('POST', `/programs/${f.programId}/groups`, {
    name: 'Influencers',
    discount: { coupon_id: 'INFL20', description: '20% off your first year' },
  })
  const groupId = made.body.data.group_id as number
  await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: groupId, name: 'Ada' })
  return { f, groupId }
}

describe('GET /api/v1/programs/me/discount', () => {
  test("a visitor's click, and later the customer, get their partner's group discount", async () => {
    const { f, groupId } = await discounted()
    const clickId = await k.clickId(f)
    const expected = {
      partner: { name: 'Ada' },
      group_id: groupId,
      discount: { coupon_id: 'INFL20', description: '20% off your first year' },
    }
    const byClick = await ask(f, `click_id=${clickId}`)
    expect(byClick.status).toBe(200)
    expect(byClick.body).toEqual({ data: expected, error: null })
    const customer = unique('cust')
    await k.lead(f, { click_id: clickId, customer_key: customer })
    expect((await ask(f, `customer_key=${customer}`)).body.data).toEqual(expected)
    // The group stops giving it: the answer says so at once.
    await api.admin('PATCH', `/groups/${groupId}`, { discount: null })
    expect((await ask(f, `customer_key=${customer}`)).body.data).toEqual({ ...expected, discount: null })
  })

  test('no partner, an unknown id, another program’s visitor, a click past the window, or an inactive partner: discount null', async () => {
    const { f } = await discounted()
    const none = { partner: null, group_id: null, discount: null }
    expect((await ask(f, 'click_id=clk_unknown')).body.data).toEqual(none)
    expect((await ask(f, 'customer_key=nobody')).body.data).toEqual(none)
    const other = await discounted()
    expect((await ask(f, `click_id=${await k.clickId(other.f)}`)).body.data).toEqual(none)
    const clickId = await k.clickId(f)
    api.clock.advance(days(31))
    expect((await ask(f, `click_id=${clickId}`)).body.data).toEqual(none)
    const fresh = await k.clickId(f)
    expect((await ask(f, `click_id=${fresh}`)).body.data.discount).not.toBeNull()
    await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/suspend`)
    expect((await ask(f, `click_id=${fresh}`)).body.data).toEqual(none)
  })

  test('a track key may ask; no key is 401; neither click_id nor customer_key is 400', async () => {
    const { f } = await discounted()
    const track = await api.admin('POST', `/programs/${f.programId}/keys`, { scope: 'track' })
    const clickId = await k.clickId(f)
    const asked = await ask(f, `click_id=${clickId}`, track.body.data.api_key)
    expect(asked.status).toBe(200)
    expect(asked.body.data.discount.coupon_id).toBe('INFL20')
    expect(asked.headers.get('x-ratelimit-limit')).toBeTruthy()
    const anonymous = await api.call('GET', `/api/v1/programs/me/discount?click_id=${clickId}`)
    expectFailure(anonymous, 401, 'Missing or malformed Authorization header. Expected: Bearer <token>')
    expectFailure(await ask(f, `click_id=${clickId}`, 'sk_nope'), 401, 'Invalid API token')
    expectFailure(await ask(f, ''), 400, 'click_id or customer_key is required')
    expectFailure(await ask(f, `click_id=${'x'.repeat(300)}`), 400, 'click_id must be at most 255 characters')
  })
})

describe('getDiscount() of the server client', () => {
  test('answers the discount by clickId or customerExternalId, ready for Stripe Checkout’s discounts', async () => {
    const { f, groupId } = await discounted()
    const svc = new Svc({ apiKey: f.apiKey, baseUrl: api.url })
    const clickId = await k.clickId(f)
    const byClick = await svc.getDiscount({ clickId })
    expect(byClick).toEqual({
      ok: true,
      status: 200,
      data: { partner: { name: 'Ada' }, group_id: groupId, discount: { coupon_id: 'INFL20', description: '20% off your first year' } },
    })
    const customer = unique('cust')
    await svc.trackLead({ customerExternalId: customer, clickId })
    const byCustomer = await svc.getDiscount({ customerExternalId: customer })
    expect(byCustomer.ok && byCustomer.data.discount).toEqual({ coupon_id: 'INFL20', description: '20% off your first year' })
    const discounts = byCustomer.ok && byCustomer.data.discount ? [{ coupon: byCustomer.data.discount.coupon_id }] : []
    expect(discounts).toEqual([{ coupon: 'INFL20' }])
    const missing = await svc.getDiscount({})
    expect(missing).toMatchObject({ ok: false, status: 400, error: { message: 'click_id or customer_key is required' } })
  })
})
