import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Api } from '../../helpers.ts'
import { trackingSetup, type Kit, unique } from './kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

test('readiness and GET /api/v1/cli/status report the same counts over every customer state, test data and refunds', async () => {
  const f = await api.setupProgram()
  // provisional: a browser-mode lead under server_required.
  await k.lead(null, { click_id: await k.clickId(f), customer_key: unique('browser') })
  // lead: a server-mode lead without a sale.
  await k.customer(f, unique('lead'))
  // converted through a lead, then refunded.
  const converted = unique('converted')
  await k.customer(f, converted)
  const refunded = unique('txn')
  expect((await k.sale(f, { transaction_id: refunded, customer_key: converted })).status).toBe(200)
  expect((await k.refund(f, { transaction_id: refunded })).status).toBe(200)
  // converted straight from a click, with no lead: the customer is created at the sale.
  expect((await k.sale(f, { transaction_id: unique('txn'), click_id: await k.clickId(f) })).status).toBe(200)
  // test data: a test click, lead and sale.
  const testClick = await k.clickId(f, { additional_data: { test_mode: true } })
  const testKey = unique('test')
  await k.lead(f, { click_id: testClick, customer_key: testKey, additional_data: { test_mode: true } })
  expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: testKey, additional_data: { test_mode: true } })).status).toBe(200)

  const readiness = (await api.call('GET', '/api/v1/programs/me/readiness', { token: f.apiKey })).body.data.counts
  const status = (await api.call('GET', '/api/v1/cli/status', { token: f.apiKey })).body.data
  const four = ({ clicks, leads, provisional_leads, sales }: Record<string, number>) => ({ clicks, leads, provisional_leads, sales })
  expect(readiness.live).toEqual(four(status.live))
  expect(readiness.test).toEqual(four(status.test))
  // Leads are customers at the lead stage or later: the two through a lead and the one converted from a click.
  expect(status.live).toEqual({ clicks: 4, leads: 3, provisional_leads: 1, sales: 2, commissions: 2 })
  expect(status.test).toEqual({ clicks: 1, leads: 1, provisional_leads: 0, sales: 1, commissions: 1 })
})
