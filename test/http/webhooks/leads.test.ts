import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Api, Fixture } from '../../helpers.ts'
import { trackingSetup, unique, type Kit } from '../track/kit.ts'
import { referralMetadata, scenario } from './fixtures.ts'

// docs/api.md, Customer states: a processor event settles a provisional lead when it resolves the customer.
let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const { stripeProgram, checkout, paidInvoice } = scenario(() => api)

describe('provisional leads', () => {
  /** A browser-mode signup under lead_auth server_required: provisional, keyed by its click only. */
  async function provisional(f: Fixture) {
    const clickId = await k.clickId(f)
    const reply = await k.lead(null, { click_id: clickId })
    expect(reply.body.data).toMatchObject({ provisional: true, status: 'provisional' })
    return clickId
  }

  test.each([
    ['checkout.session.completed', (f: Fixture, keys: { clickId: string; customerKey: string }) => checkout(f, keys).event],
    [
      'invoice.payment_succeeded',
      (f: Fixture, keys: { clickId: string; customerKey: string }) =>
        paidInvoice(referralMetadata(f.programId, keys), 'subscription_create').event,
    ],
  ])('%s settles a provisional lead it resolves, then converts it with the sale', async (_type, make) => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const clickId = await provisional(f)
    const customerKey = unique('user')
    const e = make(f, { clickId, customerKey })
    await send(e)
    expect((await list('customers'))[0]).toMatchObject({ click_id: clickId, customer_key: customerKey, status: 'converted' })
    expect(await outcomeOf(e)).toMatchObject({
      outcome: 'attributed',
      detail: expect.stringMatching(/^Provisional lead settled\. Sale \d+ recorded for /),
    })
    // Settled as the lead endpoint would: a later server lead is told the customer moved on.
    expect((await k.lead(f, { customer_key: customerKey })).body.error.message).toBe(
      'Customer status cannot be updated to lead. Current status: converted',
    )
  })

  test("a trial's zero invoice settles the lead without a sale", async () => {
    const { f, send, list, outcomeOf } = await stripeProgram()
    const clickId = await provisional(f)
    const customerKey = unique('user')
    const { event: e } = paidInvoice(referralMetadata(f.programId, { clickId, customerKey }), 'subscription_create', { amountPaid: 0 })
    await send(e)
    expect(await list('sales')).toEqual([])
    expect((await list('customers'))[0]).toMatchObject({ customer_key: customerKey, status: 'lead' })
    expect(await outcomeOf(e)).toMatchObject({
      outcome: 'settled',
      detail: 'Provisional lead settled. Amount paid is zero: no sale recorded',
    })
  })

  test('an event without svc_click_id cannot find a provisional lead, which stays provisional', async () => {
    const { f, send, list } = await stripeProgram()
    await provisional(f)
    await send(checkout(f, { customerKey: unique('user') }).event)
    expect((await list('customers'))[0].status).toBe('provisional')
  })
})
