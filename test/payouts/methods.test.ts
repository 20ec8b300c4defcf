// docs/decisions.md, Paying partners: the four payout methods in PATCH partner, the portal's form,
// the partner's page, and the Payouts page (method shown, warning when missing).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, expectFailure, startApi } from '../helpers.ts'
import { payoutKit } from './kit.ts'
import { followLink, publicOrigin, signInAccount } from '../http/pages/sessions.ts'

let api: Api, p: ReturnType<typeof payoutKit>
beforeAll(async () => {
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000' } })
  p = payoutKit(api)
})
afterAll(() => api.stop())

const patch = (programId: number, partnerId: number, body: unknown) =>
  api.admin('PATCH', `/programs/${programId}/partners/${partnerId}`, body)
const form = (cookie: string, path: string, fields: Record<string, string>) =>
  fetch(`${api.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
const page = async (cookie: string, path: string) => (await fetch(`${api.url}${path}`, { headers: { cookie } })).text()
const csrfOf = (html: string) => html.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!

describe('PATCH partner', () => {
  test.each([
    ['paypal', 'ada@paypal.test'],
    ['wise', 'ada@wise.test'],
    ['bank', 'Ada Lovelace, IBAN DE89 3704 0044 0532 0130 00'],
    ['stripe', 'acct_1Nv0FGQ9RKHgCVdK'],
  ])('takes payout_method %s with its details', async (method, details) => {
    const f = await api.setupProgram()
    const reply = await patch(f.programId, f.partnerId, { payout_method: method, payout_details: details })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ payout_method: method, payout_details: details })
  })

  test('refuses a method it does not know and details the method cannot pay to, naming the field', async () => {
    const f = await api.setupProgram()
    expectFailure(
      await patch(f.programId, f.partnerId, { payout_method: 'venmo' }),
      400,
      'payout_method must be paypal, wise, bank or stripe',
    )
    expectFailure(
      await patch(f.programId, f.partnerId, { payout_method: 'paypal', payout_details: 'not an email' }),
      400,
      'payout_details must be the PayPal email address',
    )
    expectFailure(
      await patch(f.programId, f.partnerId, { payout_method: 'stripe', payout_details: 'ada@x.test' }),
      400,
      'payout_details must be a Stripe account id (acct_…)',
    )
    expectFailure(await patch(f.programId, f.partnerId, { payout_method: 'wise' }), 400, 'payout_details are required with a payout_method')
    // Nothing was written by the refusals.
    const shown = (await api.admin('GET', `/programs/${f.programId}/partners`)).body.data[0]
    expect(shown).toMatchObject({ payout_method: null, payout_details: null })
  })
})

describe('pages', () => {
  test("the portal's form takes Wise (Stripe only through Connect); the partner page and the Payouts page show the method, and warn when it is missing", async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const link = (await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)).body.data.url
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    const portal = await page(cookie, '/partner')
    for (const label of ['PayPal', 'Wise', 'Bank transfer']) expect(portal).toContain(`>${label}</option>`)
    expect(portal).not.toContain('>Stripe</option>')
    const refused = await form(cookie, '/partner/payout-details', { _csrf: csrfOf(portal), payout_method: 'wise', payout_details: 'nope' })
    expect(refused.headers.get('location')).toBe('/partner?error=payout_details_invalid#payout-details')
    const saved = await form(cookie, '/partner/payout-details', {
      _csrf: csrfOf(portal),
      payout_method: 'wise',
      payout_details: 'ada@wise.test',
    })
    expect(saved.headers.get('location')).toBe('/partner?done=payout_details_saved#payout-details')
    expect((await api.admin('GET', `/programs/${f.programId}/partners`)).body.data[0]).toMatchObject({
      payout_method: 'wise',
      payout_details: 'ada@wise.test',
    })

    // A second partner without details; both are owed something.
    const other = await p.partner(f, null)
    await p.sale(f, 10000)
    await p.sale(other, 10000)
    const owner = await signInAccount(api, f.accountId)
    const payouts = await page(owner, `/dashboard/programs/${f.programId}/payouts`)
    const row = (id: number) =>
      payouts.slice(payouts.indexOf(`data-owed="${id}"`), payouts.indexOf('</tr>', payouts.indexOf(`data-owed="${id}"`)))
    expect(row(f.partnerId)).toContain('Wise')
    expect(row(other.partnerId)).toContain('not given')
    expect(payouts).toContain('1 partner has no payout details yet')
    const partnerPage = await page(owner, `/dashboard/programs/${f.programId}/partners/${f.partnerId}`)
    expect(partnerPage).toContain('<option value="wise" selected>Wise</option>')
    expect(partnerPage).toContain('<option value="stripe">Stripe</option>')
  })
})
