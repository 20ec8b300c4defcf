// docs/decisions.md, Paying partners: Stripe Connect, against a local fake of Stripe's documented
// API (test/payouts/fake-stripe.ts): Express onboarding from the portal, then transfers sent once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, type Fixture, expectFailure, freePort, startApi } from '../helpers.ts'
import { followLink, publicOrigin } from '../http/pages/sessions.ts'
import { type FakeStripe, STRIPE_ENV, startFakeStripe } from './fake-stripe.ts'
import { payoutKit, until } from './kit.ts'

let api: Api, p: ReturnType<typeof payoutKit>, stripe: FakeStripe
beforeAll(async () => {
  stripe = await startFakeStripe()
  const port = await freePort()
  api = await startApi({
    env: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, SVC_RATE_LIMIT_SCALE: '1000', ...STRIPE_ENV(stripe.url) },
  })
  p = payoutKit(api)
})
afterAll(async () => {
  await api.stop()
  await stripe.stop()
})

/** A partner paid through a connected account the fake Stripe knows. */
async function connected(f: Fixture) {
  const account = `acct_${Math.random().toString(36).slice(2, 12)}`
  stripe.accounts.set(account, { id: account, type: 'express', metadata: {}, details_submitted: true })
  return { ...(await p.partner(f, 'stripe', account)), account }
}

describe('Connect with Stripe, from the portal', () => {
  test('makes an Express account and sends the partner to its onboarding; back from Stripe, the account becomes their details', async () => {
    const f = await api.setupProgram()
    const link = (await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)).body.data.url
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    const portal = await (await fetch(`${api.url}/partner`, { headers: { cookie } })).text()
    expect(portal).toContain('Connect with Stripe</button>')
    const csrf = portal.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const connect = await fetch(`${api.url}/partner/stripe/connect`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    })
    expect(connect.status).toBe(303)
    const made = [...stripe.accounts.values()].find((a) => a.metadata.svc_partner_id === String(f.partnerId))!
    expect(made.type).toBe('express')
    const onboarding = stripe.links.at(-1)!
    expect(connect.headers.get('location')).toBe(onboarding.url)
    expect(onboarding.account).toBe(made.id)
    expect(onboarding.return_url).toBe(`${api.server.deps.config.publicBaseUrl}/partner/stripe/return?account=${made.id}`)

    const back = (account: string) =>
      fetch(`${api.url}/partner/stripe/return?account=${account}`, { headers: { cookie }, redirect: 'manual' })
    // Not finished on Stripe's side: nothing changes yet.
    expect((await back(made.id)).headers.get('location')).toBe('/partner?error=payout_details_stripe_unfinished#payout-details')
    made.details_submitted = true
    // Another partner's account, named in a forged link, changes nothing.
    const other = await connected(f)
    stripe.accounts.get(other.account)!.metadata = { svc_partner_id: String(other.partnerId) }
    expect((await back(other.account)).headers.get('location')).toBe('/partner?error=payout_details_stripe_failed#payout-details')
    expect((await back(made.id)).headers.get('location')).toBe('/partner?done=payout_details_stripe#payout-details')
    const partner = (await api.admin('GET', `/programs/${f.programId}/partners`)).body.data.find((x: any) => x.partner_id === f.partnerId)
    expect(partner).toMatchObject({ payout_method: 'stripe', payout_details: made.id })
  })
})

describe('sending with Stripe', () => {
  test('one transfer per payout with Idempotency-Key svc-payout-<id>; paid at once with the transfer id; the statement verifies', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const ada = await connected(f)
    await p.sale(ada, 10000)
    await p.sale(ada, 500000, 'VND')
    const made = await p.run(f)
    const usd = made.find((m) => m.currency === 'USD').payout_id
    const vnd = made.find((m) => m.currency === 'VND').payout_id
    const reply = await api.admin('POST', `/programs/${f.programId}/payouts/send`, { rail: 'stripe' })
    expect(reply.status).toBe(202)
    expect(reply.body.data.sending).toBe(2)
    await until(async () => (await p.payout(usd)).status === 'paid' && (await p.payout(vnd)).status === 'paid')
    const transfer = stripe.transfers.find((t) => t.transfer_group === `payout_${usd}`)!
    expect(transfer).toMatchObject({ amount: 1000, currency: 'usd', destination: ada.account, metadata: { svc_payout_id: String(usd) } })
    expect(stripe.transfers.find((t) => t.transfer_group === `payout_${vnd}`)).toMatchObject({ amount: 50000, currency: 'vnd' })
    expect(stripe.requests.filter((r) => r.key === `svc-payout-${usd}`)).toHaveLength(1)
    expect((await p.payout(usd)).reference).toBe(transfer.id)
    expect(await p.statementCheck(f, ada.partnerId)).toMatchObject({ ok: true })
  })

  test('Stripe refuses: the payout fails with its message and its entries are due again; nobody may mark it paid', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const gone = await p.partner(f, 'stripe', 'acct_doesnotexist')
    await p.sale(gone, 10000)
    const [made] = await p.run(f)
    await api.admin('POST', `/programs/${f.programId}/payouts/send`, { rail: 'stripe' })
    await until(async () => (await p.payout(made.payout_id)).status === 'failed')
    expect((await p.payout(made.payout_id)).failure_reason).toBe("resource_missing: No such destination: 'acct_doesnotexist'")
    expectFailure(
      await api.admin('POST', `/payouts/${made.payout_id}/cancel`),
      409,
      'A failed payout cannot be marked paid or canceled: its entries are due again for the next run',
    )
    expect((await p.run(f)).map((m) => m.amount_cents)).toEqual([1000])
  })

  test("an answer lost: resent with the same key; past Stripe's 24 hours, the transfer is found by transfer_group, never made twice", async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const ada = await connected(f)
    await p.sale(ada, 10000)
    const [made] = await p.run(f)
    stripe.mode = 'lose'
    const before = stripe.transfers.length
    await api.admin('POST', `/programs/${f.programId}/payouts/send`, { rail: 'stripe' })
    await until(async () => stripe.requests.some((r) => r.key === `svc-payout-${made.payout_id}`))
    expect((await p.payout(made.payout_id)).status).toBe('processing')
    // A day and more later Stripe has forgotten the key; the sender looks the transfer up first.
    stripe.mode = 'ok'
    stripe.forgetKeys()
    api.clock.advance(25 * 3_600_000)
    await until(async () => (await p.payout(made.payout_id)).status === 'paid')
    expect(stripe.transfers.length).toBe(before + 1)
    expect((await p.payout(made.payout_id)).reference).toBe(stripe.transfers.at(-1)!.id)
    expect(stripe.requests.filter((r) => r.key === `svc-payout-${made.payout_id}`)).toHaveLength(1)
  })
})
