// docs/payouts.md, Stripe: only the Connect flow makes a partner's Stripe details from the portal.
// A partner cannot type someone else's acct_… in the form, "Connect with Stripe" never hands out
// an onboarding link for an account Stripe does not say was made for this partner (metadata
// svc_partner_id), and one partner makes a few accounts a day at most. Against the local fake of
// Stripe's documented API (test/payouts/fake-stripe.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, type Fixture, freePort, startApi } from '../helpers.ts'
import { followLink, publicOrigin } from '../http/pages/sessions.ts'
import { type FakeStripe, STRIPE_ENV, startFakeStripe } from './fake-stripe.ts'

let api: Api, stripe: FakeStripe
beforeAll(async () => {
  stripe = await startFakeStripe()
  const port = await freePort()
  api = await startApi({
    env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, SVC_RATE_LIMIT_SCALE: '1000', ...STRIPE_ENV(stripe.url) },
  })
})
afterAll(async () => {
  await api.stop()
  await stripe.stop()
})

/** The fixture's partner signed in to the portal: a form post answers the redirect. */
async function portal(f: Fixture) {
  const link = (await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)).body.data.url
  const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
  const page = async () => (await fetch(`${api.url}/partner`, { headers: { cookie } })).text()
  const csrf = (await page()).match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
  const post = async (path: string, fields: Record<string, string> = {}) =>
    fetch(`${api.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
    })
  return { page, post }
}
const partnerOf = async (f: Fixture) =>
  (await api.admin('GET', `/programs/${f.programId}/partners`)).body.data.find((x: any) => x.partner_id === f.partnerId)
const madeFor = (f: Fixture) => [...stripe.accounts.values()].filter((a) => a.metadata.svc_partner_id === String(f.partnerId))

describe("the portal's payout form", () => {
  test("takes method stripe with a typed account id (docs/decisions.md: the form takes all four), and Connect then gives no link for it unless Stripe says it is this partner's", async () => {
    const f = await api.setupProgram()
    stripe.accounts.set('acct_victim', {
      id: 'acct_victim',
      type: 'express',
      metadata: { svc_partner_id: '999999' },
      details_submitted: true,
    })
    const { page, post } = await portal(f)
    const form = (await page()).split('action="/partner/payout-details"')[1]!.split('</form>')[0]!
    expect(form).toContain('value="stripe"')
    const typed = await post('/partner/payout-details', { payout_method: 'stripe', payout_details: 'acct_victim' })
    expect(typed.headers.get('location')).toBe('/partner?done=payout_details_saved#payout-details')
    expect(await partnerOf(f)).toMatchObject({ payout_method: 'stripe', payout_details: 'acct_victim' })
    // Connect does not hand out acct_victim's onboarding: Stripe says it is another partner's.
    const connected = await post('/partner/stripe/connect', {})
    expect(connected.headers.get('location') ?? '').not.toContain('acct_victim')
    const paypal = await post('/partner/payout-details', { payout_method: 'paypal', payout_details: 'me@paypal.test' })
    expect(paypal.headers.get('location')).toBe('/partner?done=payout_details_saved#payout-details')
    // The owner may still set an existing account id (docs/decisions.md, Paying partners).
    const owner = await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, {
      payout_method: 'stripe',
      payout_details: 'acct_victim',
    })
    expect(owner.status).toBe(200)
  })
})

describe('Connect with Stripe', () => {
  test("a saved account Stripe does not say is this partner's gets no onboarding link: a new Express account is made for the partner", async () => {
    const f = await api.setupProgram()
    stripe.accounts.set('acct_someone', {
      id: 'acct_someone',
      type: 'express',
      metadata: { svc_partner_id: '424242' },
      details_submitted: true,
    })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, {
      payout_method: 'stripe',
      payout_details: 'acct_someone',
    })
    const { post } = await portal(f)
    const connect = await post('/partner/stripe/connect')
    expect(connect.status).toBe(303)
    const [made] = madeFor(f)
    expect(made).toBeDefined()
    expect(made!.id).not.toBe('acct_someone')
    expect(stripe.links.at(-1)!.account).toBe(made!.id)
    expect(connect.headers.get('location')).toBe(stripe.links.at(-1)!.url)
    expect(stripe.links.some((l) => l.account === 'acct_someone')).toBe(false)

    // Another svc installation's account for a partner with the same id is not this one's either.
    const g = await api.setupProgram()
    stripe.accounts.set('acct_elsewhere', {
      id: 'acct_elsewhere',
      type: 'express',
      metadata: { svc_partner_id: String(g.partnerId), svc_installation: 'another-server' },
      details_submitted: true,
    })
    await api.admin('PATCH', `/programs/${g.programId}/partners/${g.partnerId}`, {
      payout_method: 'stripe',
      payout_details: 'acct_elsewhere',
    })
    await (await portal(g)).post('/partner/stripe/connect')
    expect(stripe.links.at(-1)!.account).not.toBe('acct_elsewhere')
    expect(madeFor(g).filter((a) => a.id !== 'acct_elsewhere')).toHaveLength(1)
    const back = await fetch(`${api.url}/partner/stripe/return?account=acct_elsewhere`, {
      headers: {
        cookie: (
          await followLink(api, (await api.admin('POST', `/programs/${g.programId}/partners/${g.partnerId}/portal-link`)).body.data.url)
        ).headers
          .get('set-cookie')!
          .split(';')[0]!,
      },
      redirect: 'manual',
    })
    expect(back.headers.get('location')).toBe('/partner?error=payout_details_stripe_failed#payout-details')
  })

  test("the partner's own account (saved, or made and not finished) goes on with a new link, no second account", async () => {
    const f = await api.setupProgram()
    const { post } = await portal(f)
    await post('/partner/stripe/connect')
    await post('/partner/stripe/connect')
    const made = madeFor(f)
    expect(made).toHaveLength(1)
    expect(stripe.links.slice(-2).map((l) => l.account)).toEqual([made[0]!.id, made[0]!.id])
  })

  test('one partner makes at most 3 Stripe accounts a day; the next day again', async () => {
    const f = await api.setupProgram()
    const { post } = await portal(f)
    for (let i = 0; i < 3; i++) {
      expect((await post('/partner/stripe/connect')).headers.get('location')).toStartWith('https://connect.stripe.com/')
      // Removed on Stripe's side: the next press needs a new one.
      for (const account of madeFor(f)) stripe.accounts.delete(account.id)
    }
    const links = stripe.links.length
    const refused = await post('/partner/stripe/connect')
    expect(refused.headers.get('location')).toBe('/partner?error=payout_details_stripe_limit#payout-details')
    expect(stripe.links.length).toBe(links)
    expect(madeFor(f)).toHaveLength(0)
    api.clock.advance(24 * 3_600_000 + 1)
    expect((await post('/partner/stripe/connect')).headers.get('location')).toStartWith('https://connect.stripe.com/')
    expect(madeFor(f)).toHaveLength(1)
  })
})
