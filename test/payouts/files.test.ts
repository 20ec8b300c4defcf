// docs/decisions.md, Paying partners: the PayPal Payouts and Wise batch files of the pending payouts.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ADMIN_TOKEN, type Api, expectFailure, startApi } from '../helpers.ts'
import { signInAccount } from '../http/pages/sessions.ts'
import { payoutKit } from './kit.ts'

let api: Api, p: ReturnType<typeof payoutKit>
beforeAll(async () => {
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000' } })
  p = payoutKit(api)
})
afterAll(() => api.stop())

const file = async (programId: number, query: string) => {
  const reply = await fetch(`${api.url}/api/v1/admin/programs/${programId}/payouts.csv?${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  return { status: reply.status, type: reply.headers.get('content-type'), text: await reply.text() }
}

test('PayPal: no header, one currency a file (picked by &currency=), only pending payouts of PayPal partners; Wise: its header', async () => {
  const f = await api.setupProgram({ holding_period_days: 0, name: 'Files Shop' })
  const ada = await p.partner(f, 'paypal', 'ada@paypal.test')
  const bo = await p.partner(f, 'wise', 'bo@wise.test')
  const cy = await p.partner(f, 'bank', 'IBAN DE89 3704 0044 0532 0130 00')
  await p.sale(ada, 12345)
  await p.sale(ada, 50000, 'VND')
  await p.sale(bo, 9999, 'EUR')
  await p.sale(cy, 10000)
  const made = await p.run(f)
  const id = (partnerId: number, currency: string) => made.find((m) => m.partner_id === partnerId && m.currency === currency).payout_id
  // A paid payout is in no file.
  const paidSale = await p.partner(f, 'paypal', 'dee@paypal.test')
  await p.sale(paidSale, 7000)
  const [paid] = await p.run(f)
  await api.admin('POST', `/payouts/${paid.payout_id}/paid`, { reference: 'done by hand' })

  const refused = await file(f.programId, 'format=paypal')
  expect(refused.status).toBe(400)
  expect(JSON.parse(refused.text).error.message).toBe(
    'currency is required: the pending PayPal payouts are in USD, VND, and a PayPal file holds one currency',
  )
  const usd = await file(f.programId, 'format=paypal&currency=USD')
  expect(usd.status).toBe(200)
  expect(usd.type).toBe('text/csv; charset=utf-8')
  expect(usd.text).toBe(`ada@paypal.test,12.35,USD,payout_${id(ada.partnerId, 'USD')},Files Shop payout ${id(ada.partnerId, 'USD')}\r\n`)
  const jpy = await file(f.programId, 'format=paypal&currency=VND')
  expect(jpy.text).toBe(`ada@paypal.test,5000,VND,payout_${id(ada.partnerId, 'VND')},Files Shop payout ${id(ada.partnerId, 'VND')}\r\n`)

  const wise = await file(f.programId, 'format=wise')
  expect(wise.text.split('\r\n')).toEqual([
    'name,recipientEmail,paymentReference,receiverType,amountCurrency,amount,sourceCurrency,targetCurrency',
    `${bo.shortLink},bo@wise.test,payout ${id(bo.partnerId, 'EUR')},PERSON,target,10.00,EUR,EUR`,
    '',
  ])
  expectFailure(await api.admin('GET', `/programs/${f.programId}/payouts.csv?format=sepa`), 400, 'format must be paypal or wise')
  expectFailure(
    await api.admin('GET', `/programs/${f.programId}/payouts.csv?format=paypal&currency=usd`),
    400,
    'currency must be a three-letter ISO 4217 code',
  )

  // The dashboard offers one PayPal file per currency PayPal pays out (not VND) and the Wise file.
  const owner = await signInAccount(api, f.accountId)
  const pageText = await (await fetch(`${api.url}/dashboard/programs/${f.programId}/payouts`, { headers: { cookie: owner } })).text()
  const links = [...pageText.matchAll(/href="([^"]*payouts\.csv\?format=[^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))
  expect(links).toEqual([
    `/dashboard/programs/${f.programId}/payouts.csv?format=paypal&currency=USD`,
    `/dashboard/programs/${f.programId}/payouts.csv?format=wise`,
  ])
  const fromPage = await fetch(`${api.url}${links[0]}`, { headers: { cookie: owner } })
  expect(await fromPage.text()).toBe(usd.text)
})
