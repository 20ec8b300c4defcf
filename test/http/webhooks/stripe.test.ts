import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type Stripe from 'stripe'
import { startApi, type Api, type Fixture } from '../../helpers.ts'
import { kit, roomy, unique, type Kit } from '../track/kit.ts'
import { checkoutSession, deliver, event, referralMetadata, signatureHeader } from './fixtures.ts'

// Delivery over real HTTP: signatures, bodies, replays, routing. What events record is in
// webhooks-stripe-payments.test.ts.
const CONNECT_SECRET = 'whsec_connect_platform_secret'
let api: Api
let k: Kit
beforeAll(async () => {
  api = await startApi({ env: { ...roomy.env, STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET } })
  k = kit(api)
})
afterAll(() => api.stop())

const seconds = () => Math.floor(api.clock.now() / 1000)

/** A test-mode program with a signing secret, and a customer who clicked and signed up. */
async function stripeProgram(fields: Record<string, unknown> = {}) {
  const f = await api.setupProgram()
  const secret = unique('whsec')
  const patched = await api.admin('PATCH', `/programs/${f.programId}`, { livemode: false, stripe_webhook_secret: secret, ...fields })
  expect(patched.status).toBe(200)
  const customerKey = unique('user')
  const { clickId } = await k.customer(f, customerKey)
  return { f, secret, customerKey, clickId, path: `/api/v1/webhooks/stripe/${f.programId}` }
}

function oneOff(
  f: Fixture,
  keys: { clickId?: string; customerKey?: string },
  options: { livemode?: boolean; account?: string; fields?: Partial<Stripe.Checkout.Session> } = {},
) {
  const { fields, ...rest } = options
  const session = checkoutSession({
    created: seconds(),
    metadata: referralMetadata(f.programId, keys),
    livemode: options.livemode ?? false,
    ...fields,
  })
  return event('checkout.session.completed', session, { created: seconds(), ...rest })
}

const events = async (f: Fixture) => (await api.admin('GET', `/programs/${f.programId}/events`)).body.data as Record<string, any>[]
const stored = (eventId: string) => k.count('SELECT count(*) AS n FROM processor_events WHERE event_id = ?', eventId)

describe('signatures', () => {
  test('a signed event answers 200 { received: true } and is listed with its outcome', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = oneOff(f, { customerKey })
    const reply = await deliver(api, path, e, secret)
    expect(reply).toMatchObject({ status: 200, body: { received: true } })
    const [row] = await events(f)
    expect(row).toMatchObject({
      event_id: e.id,
      program_id: f.programId,
      type: 'checkout.session.completed',
      livemode: false,
      outcome: 'attributed',
    })
  })

  test.each([
    ['another secret', { secret: 'whsec_wrong' }, 'No valid signature for this endpoint in the Stripe-Signature header'],
    ['no header', { header: '' }, 'Missing Stripe-Signature header'],
    ['a header without v1', { header: 't=1,v0=abc' }, 'No valid signature for this endpoint in the Stripe-Signature header'],
    ['a timestamp 301 s old', { skewMs: -301_000 }, 'Stripe-Signature timestamp is more than 300 seconds from the server time'],
    ['a timestamp 301 s ahead', { skewMs: 301_000 }, 'Stripe-Signature timestamp is more than 300 seconds from the server time'],
  ])('%s answers 400 and records nothing', async (_name, options, message) => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = oneOff(f, { customerKey })
    const { secret: other, ...rest } = options as { secret?: string; header?: string; skewMs?: number }
    const reply = await deliver(api, path, e, other ?? secret, rest)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } })
    expect(stored(e.id)).toBe(0)
    expect((await api.admin('GET', `/programs/${f.programId}/sales`)).body.data).toEqual([])
  })

  test('timestamps exactly 300 s old or ahead are accepted', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    for (const skewMs of [-300_000, 300_000]) {
      expect((await deliver(api, path, oneOff(f, { customerKey }), secret, { skewMs })).status).toBe(200)
    }
  })

  test('during rotation every configured secret verifies', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    await api.admin('PATCH', `/programs/${f.programId}`, { stripe_webhook_secret: [secret, 'whsec_next_one'] })
    expect((await deliver(api, path, oneOff(f, { customerKey }), 'whsec_next_one')).status).toBe(200)
    expect((await deliver(api, path, oneOff(f, { customerKey }), secret)).status).toBe(200)
  })

  test("another program's secret does not open this program's route", async () => {
    const a = await stripeProgram()
    const b = await stripeProgram()
    const e = oneOff(b.f, { customerKey: b.customerKey })
    expect((await deliver(api, a.path, e, b.secret)).status).toBe(400)
    expect(stored(e.id)).toBe(0)
  })

  test('a program without a signing secret answers 400; an unknown program 404', async () => {
    const f = await api.setupProgram()
    const e = oneOff(f, { customerKey: 'x' })
    const bare = await deliver(api, `/api/v1/webhooks/stripe/${f.programId}`, e, 'whsec_any')
    expect(bare.status).toBe(400)
    expect(bare.body.error.message).toBe('No Stripe webhook signing secret is set for this program')
    const unknown = await deliver(api, '/api/v1/webhooks/stripe/999999', e, 'whsec_any')
    expect(unknown).toMatchObject({ status: 404, body: { data: null, error: { status: 404, message: 'Program not found' } } })
  })
})

describe('bodies', () => {
  test.each([
    ['JSON that is no event', '{"hello":"world"}'],
    ['text that is no JSON', 'id=evt_1&type=checkout.session.completed'],
  ])('%s, even correctly signed, answers 400 and records nothing', async (_name, payload) => {
    const { f, secret, path } = await stripeProgram()
    const reply = await deliver(api, path, payload, secret)
    expect(reply.status).toBe(400)
    expect(reply.body.error.message).toBe('Body is not a Stripe event (JSON with id, type and data.object)')
    expect(await events(f)).toEqual([])
  })

  test('the signature covers the exact bytes: re-serialised JSON fails, a 200 KiB event passes', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = oneOff(f, { customerKey })
    const header = await signatureHeader(JSON.stringify(e), secret, api.clock.now())
    expect((await deliver(api, path, JSON.stringify(e, null, 2), secret, { header })).status).toBe(400)
    expect(stored(e.id)).toBe(0)
    const submit = { message: 'é'.repeat(100_000) }
    const big = oneOff(
      f,
      { customerKey },
      { fields: { custom_text: { after_submit: null, shipping_address: null, submit, terms_of_service_acceptance: null } } },
    )
    expect((await deliver(api, path, big, secret)).status).toBe(200)
    expect(stored(big.id)).toBe(1)
  })

  test('a body over 512 KiB answers 400 and records nothing', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = oneOff(f, { customerKey }, { fields: { client_reference_id: 'x'.repeat(530_000) } })
    const reply = await deliver(api, path, e, secret)
    expect(reply.status).toBe(400)
    expect(reply.body.error.message).toBe('Request body too large (limit 524288 bytes)')
    expect(stored(e.id)).toBe(0)
  })
})

describe('replays and routing', () => {
  test('a replayed event answers 200 again and changes nothing', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = oneOff(f, { customerKey })
    for (let i = 0; i < 3; i++) expect((await deliver(api, path, e, secret)).body).toEqual({ received: true })
    // Concurrent redeliveries land in one group commit: the UNIQUE event_id still keeps one.
    await Promise.all([1, 2, 3].map(() => deliver(api, path, e, secret)))
    expect(stored(e.id)).toBe(1)
    expect((await api.admin('GET', `/programs/${f.programId}/sales`)).body.data).toHaveLength(1)
    expect((await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data).toHaveLength(1)
  })

  test('an event whose livemode differs from the program is stored, ignored and explained', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = oneOff(f, { customerKey }, { livemode: true })
    expect((await deliver(api, path, e, secret)).status).toBe(200)
    expect((await events(f))[0]).toMatchObject({
      event_id: e.id,
      livemode: true,
      outcome: 'ignored',
      sale_id: null,
      detail: 'Livemode mismatch: a live-mode event for a test-mode program',
    })
    expect((await api.admin('GET', `/programs/${f.programId}/sales`)).body.data).toEqual([])
    // livemode null takes both modes again: the same payment, re-sent, is attributed.
    const reset = await api.admin('PATCH', `/programs/${f.programId}`, { livemode: null })
    expect(reset.body.data.livemode).toBeNull()
    expect((await api.admin('GET', `/programs/${f.programId}`)).body.data[0].livemode).toBeNull()
    const again = oneOff(f, { customerKey }, { livemode: true })
    expect((await deliver(api, path, again, secret)).status).toBe(200)
    expect((await events(f))[0]).toMatchObject({ event_id: again.id, livemode: true, outcome: 'attributed' })
    expect((await api.admin('GET', `/programs/${f.programId}/sales`)).body.data).toHaveLength(1)
  })

  test('an event whose metadata names another program is ignored and explained', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const other = await api.setupProgram()
    const e = event(
      'checkout.session.completed',
      checkoutSession({ created: seconds(), metadata: referralMetadata(other.programId, { customerKey }) }),
      { created: seconds() },
    )
    expect((await deliver(api, path, e, secret)).status).toBe(200)
    expect((await events(f))[0]).toMatchObject({
      outcome: 'ignored',
      detail: `Metadata program_id ${other.programId} names another program than this one (${f.programId})`,
    })
  })

  test('an event type not used for attribution is stored as ignored', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = { ...oneOff(f, { customerKey }), type: 'checkout.session.expired' } as ReturnType<typeof oneOff>
    expect((await deliver(api, path, e, secret)).status).toBe(200)
    expect((await events(f))[0]).toMatchObject({ type: 'checkout.session.expired', outcome: 'ignored' })
  })

  test('Connect events are routed by event.account to the program with that stripe_account_id', async () => {
    const account = `acct_${unique('conn').replace(/_/g, '')}`
    const { f, customerKey } = await stripeProgram({ stripe_account_id: account })
    const e = oneOff(f, { customerKey }, { account })
    expect(await deliver(api, '/api/v1/webhooks/stripe', e, CONNECT_SECRET)).toMatchObject({ status: 200, body: { received: true } })
    expect((await events(f))[0]).toMatchObject({ event_id: e.id, outcome: 'attributed' })
    // The program's own secret does not sign Connect events.
    expect((await deliver(api, '/api/v1/webhooks/stripe', oneOff(f, { customerKey }, { account }), 'whsec_wrong')).status).toBe(400)
  })

  test('a Connect event of an account no program claims is stored, unrouted, and applied when re-sent once a program claims it', async () => {
    const account = `acct_${unique('late').replace(/_/g, '')}`
    const { f, customerKey } = await stripeProgram()
    const e = oneOff(f, { customerKey }, { account })
    expect((await deliver(api, '/api/v1/webhooks/stripe', e, CONNECT_SECRET)).status).toBe(200)
    const row = api.server.deps.database.client
      .prepare('SELECT program_id, outcome, detail FROM processor_events WHERE event_id = ?')
      .get(e.id)
    expect(row).toEqual({ program_id: null, outcome: 'ignored', detail: `No program has stripe_account_id ${account}: not routed` })
    expect((await api.admin('PATCH', `/programs/${f.programId}`, { stripe_account_id: account })).status).toBe(200)
    expect((await deliver(api, '/api/v1/webhooks/stripe', e, CONNECT_SECRET)).status).toBe(200)
    expect((await events(f))[0]).toMatchObject({ event_id: e.id, outcome: 'attributed' })
    expect(stored(e.id)).toBe(1)
    // From then on it is an ordinary replay.
    expect((await deliver(api, '/api/v1/webhooks/stripe', e, CONNECT_SECRET)).status).toBe(200)
    expect((await api.admin('GET', `/programs/${f.programId}/sales`)).body.data).toHaveLength(1)
  })

  test('a program that sets no livemode accepts test-mode and live-mode events', async () => {
    const f = await api.setupProgram()
    const secret = unique('whsec')
    expect((await api.admin('PATCH', `/programs/${f.programId}`, { stripe_webhook_secret: secret })).status).toBe(200)
    const path = `/api/v1/webhooks/stripe/${f.programId}`
    for (const livemode of [false, true]) {
      const customerKey = unique('user')
      await k.customer(f, customerKey)
      expect((await deliver(api, path, oneOff(f, { customerKey }, { livemode }), secret)).status).toBe(200)
    }
    expect((await events(f)).map((row) => row.outcome)).toEqual(['attributed', 'attributed'])
  })

  test('a checkout session without mode, payment_status or currency is read as a paid one-off payment in USD', async () => {
    const { f, secret, customerKey, path } = await stripeProgram()
    const e = oneOff(f, { customerKey })
    const session = e.data.object as unknown as Record<string, unknown>
    delete session.mode
    delete session.payment_status
    delete session.currency
    expect((await deliver(api, path, e, secret)).status).toBe(200)
    expect((await events(f))[0]).toMatchObject({ outcome: 'attributed' })
    expect((await api.admin('GET', `/programs/${f.programId}/sales`)).body.data[0].currency).toBe('USD')
  })

  test('without STRIPE_CONNECT_WEBHOOK_SECRET the Connect route answers 404', async () => {
    const bare = await startApi()
    const reply = await deliver(
      bare,
      '/api/v1/webhooks/stripe',
      oneOff(await bare.setupProgram(), { customerKey: 'u' }, { account: 'acct_1' }),
      CONNECT_SECRET,
    )
    expect(reply.status).toBe(404)
    await bare.stop()
  })
})
