// docs/decisions.md, Paying partners: sending through the PayPal Payouts API, against a local fake
// that answers PayPal's documented shapes (test/payouts/fake-paypal.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { type Api, type Fixture, expectFailure, startApi } from '../helpers.ts'
import { type FakePayPal, PAYPAL_ENV, startFakePayPal } from './fake-paypal.ts'
import { payoutKit, until } from './kit.ts'
import { publicOrigin, signInAccount } from '../http/pages/sessions.ts'

let api: Api, p: ReturnType<typeof payoutKit>, paypal: FakePayPal
beforeAll(async () => {
  paypal = await startFakePayPal()
  api = await startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000', WEBHOOKS_ALLOW_PRIVATE: 'true', ...PAYPAL_ENV(paypal.url) } })
  p = payoutKit(api)
})
afterAll(async () => {
  await api.stop()
  await paypal.stop()
})
beforeEach(() => {
  paypal.mode = 'ok'
  paypal.outcome = () => ({ status: 'SUCCESS' })
  paypal.pollsToFinal = 1
})

const send = (f: Fixture, body: unknown) => api.admin('POST', `/programs/${f.programId}/payouts/send`, body)
/** Moves the server's clock past the next poll (every 5 s) and waits for `status`. */
async function pollUntil(id: number, status: string) {
  await until(async () => {
    if ((await p.payout(id)).status === status) return true
    api.clock.advance(5_000)
    return false
  })
}

describe('sending with PayPal', () => {
  test('one batch per currency with fixed keys; processing until polled, then paid with the item id, the partner emailed', async () => {
    const f = await api.setupProgram({ holding_period_days: 0, name: 'Paid Shop' })
    const ada = await p.partner(f, 'paypal', 'ada@paypal.test')
    const bo = await p.partner(f, 'paypal', 'bo@paypal.test')
    const cy = await p.partner(f, 'bank', 'IBAN DE89 3704 0044 0532 0130 00')
    await p.sale(ada, 10000)
    await p.sale(bo, 20000)
    await p.sale(bo, 30000, 'EUR')
    await p.sale(ada, 500000, 'VND')
    await p.sale(cy, 10000)
    const made = await p.run(f)
    const id = (who: Fixture, currency: string) => made.find((m) => m.partner_id === who.partnerId && m.currency === currency).payout_id
    const before = paypal.batches.length

    const reply = await send(f, { rail: 'paypal' })
    expect(reply.status).toBe(202)
    expect(reply.body.data.sending).toBe(3)
    expect(reply.body.data.skipped).toEqual([
      { payout_id: id(ada, 'VND'), reason: 'PayPal cannot pay in VND' },
      { payout_id: id(cy, 'USD'), reason: 'the partner is paid by bank, not paypal' },
    ])
    await until(async () => paypal.batches.length === before + 2)
    const [eur, usd] = paypal.batches.slice(before)
    for (const batch of [eur!, usd!]) expect(batch.requestId).toBe(batch.sender_batch_id)
    expect(
      usd!.items.map((i) => [i.payout_item.receiver, i.payout_item.amount, i.payout_item.sender_item_id, i.payout_item.recipient_type]),
    ).toEqual([
      ['ada@paypal.test', { value: '10.00', currency: 'USD' }, `payout_${id(ada, 'USD')}`, 'EMAIL'],
      ['bo@paypal.test', { value: '20.00', currency: 'USD' }, `payout_${id(bo, 'USD')}`, 'EMAIL'],
    ])
    expect((await p.payout(id(ada, 'USD'))).status).toBe('processing')
    // Nobody marks or cancels a payout the rail is sending.
    expectFailure(
      await api.admin('POST', `/payouts/${id(ada, 'USD')}/paid`),
      409,
      'A payout being sent cannot be marked paid or canceled: the rail says when it is paid or failed',
    )
    expectFailure(
      await api.admin('POST', `/payouts/${id(ada, 'USD')}/cancel`),
      409,
      'A payout being sent cannot be marked paid or canceled: the rail says when it is paid or failed',
    )
    // A second send finds nothing pending of PayPal's to send.
    expect((await send(f, { rail: 'paypal' })).body.data.sending).toBe(0)

    await pollUntil(id(ada, 'USD'), 'paid')
    await pollUntil(id(bo, 'EUR'), 'paid')
    const paid = await p.payout(id(ada, 'USD'))
    expect(paid.reference).toBe(usd!.items[0]!.payout_item_id)
    expect((await p.payout(id(ada, 'VND'))).status).toBe('pending')
    const mails = (await api.admin('GET', `/emails?program_id=${f.programId}`)).body.data
    expect(mails.filter((m: any) => JSON.stringify(m).includes(ada.email)).map((m: any) => m.subject)).toEqual([
      'Paid Shop paid you USD 10.00',
    ])
    const commissions = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
    expect(commissions.filter((c: any) => c.partner_id === ada.partnerId && c.currency === 'USD').map((c: any) => c.status)).toEqual([
      'paid',
    ])

    // The paid partner's statement still verifies.
    expect(await p.statementCheck(f, ada.partnerId)).toMatchObject({ ok: true })
  })

  test('an item PayPal fails: the payout fails with the reason, its entries are due again, the others are paid', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    expect((await api.admin('POST', `/programs/${f.programId}/webhooks`, { url: 'http://127.0.0.1:9/hook' })).status).toBe(201)
    const ada = await p.partner(f, 'paypal', 'ada@paypal.test')
    const bad = await p.partner(f, 'paypal', 'closed@paypal.test')
    await p.sale(ada, 10000)
    await p.sale(bad, 10000)
    const made = await p.run(f)
    paypal.outcome = (receiver) =>
      receiver === 'closed@paypal.test'
        ? { status: 'FAILED', error: { name: 'RECEIVER_ACCOUNT_LOCKED', message: 'Receiver account locked.' } }
        : { status: 'SUCCESS' }
    expect((await send(f, { rail: 'paypal', payout_ids: made.map((m) => m.payout_id) })).body.data.sending).toBe(2)
    const failedId = made.find((m) => m.partner_id === bad.partnerId).payout_id
    await pollUntil(failedId, 'failed')
    // payout.failed with the reason and payout.paid, in the units that changed the payouts.
    const events = (
      api.server.deps.database.client
        .prepare("SELECT type, body FROM webhook_events WHERE program_id = ? AND type LIKE 'payout.%' ORDER BY id")
        .all(f.programId) as {
        type: string
        body: string
      }[]
    ).map((e) => ({ type: e.type, data: JSON.parse(e.body).data }))
    expect(events.find((e) => e.type === 'payout.failed')?.data).toMatchObject({
      payout_id: failedId,
      status: 'failed',
      failure: { code: 'RECEIVER_ACCOUNT_LOCKED', message: 'PayPal FAILED: Receiver account locked.' },
    })
    expect(events.find((e) => e.type === 'payout.paid')?.data).toMatchObject({ partner_id: ada.partnerId, status: 'paid' })
    const failed = await p.payout(failedId)
    expect(failed.failure_reason).toBe('PayPal FAILED: Receiver account locked.')
    // The audit log: the operator sent both; the rail's answers (a job: system) paid one and failed the other.
    const audit = (await api.admin('GET', `/programs/${f.programId}/audit?action=payout.`)).body.data as any[]
    const paidId = made.find((m) => m.partner_id === ada.partnerId).payout_id
    expect(
      audit
        .map((e) => [e.action, e.actor, Number(e.object_id)])
        .filter(([action]) => action !== 'payout.run')
        .sort(),
    ).toEqual(
      [
        ['payout.failed', 'system', failedId],
        ['payout.paid', 'system', paidId],
        ['payout.send', 'operator', failedId],
        ['payout.send', 'operator', paidId],
      ].sort(),
    )
    expect(audit.find((e) => e.action === 'payout.failed').details).toMatchObject({ reason: 'PayPal FAILED: Receiver account locked.' })
    expect((await p.payout(made.find((m) => m.partner_id === ada.partnerId).payout_id)).status).toBe('paid')
    expectFailure(
      await api.admin('POST', `/payouts/${failedId}/paid`),
      409,
      'A failed payout cannot be marked paid or canceled: its entries are due again for the next run',
    )
    // Its entries are due again: the next run pays them in a new payout.
    const again = await p.run(f)
    expect(again.map((m) => [m.partner_id, m.amount_cents])).toEqual([[bad.partnerId, 1000]])
    expect(await p.statementCheck(f, bad.partnerId)).toMatchObject({ ok: true })
  })

  test('PayPal refuses the batch: every payout in it fails with the provider message; a 500 is sent again with the same keys', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const ada = await p.partner(f, 'paypal', 'ada@paypal.test')
    await p.sale(ada, 10000)
    const [first] = await p.run(f)
    paypal.mode = 'reject'
    await send(f, { rail: 'paypal' })
    await until(async () => (await p.payout(first.payout_id)).status === 'failed')
    expect((await p.payout(first.payout_id)).failure_reason).toBe(
      'INSUFFICIENT_FUNDS: Sender does not have sufficient funds. Please add funds and retry.',
    )

    const [second] = await p.run(f)
    paypal.mode = 'fail'
    const creates = paypal.creates.length
    await send(f, { rail: 'paypal' })
    await until(async () => paypal.creates.length === creates + 1)
    expect((await p.payout(second.payout_id)).status).toBe('processing')
    // The owner sees why it waits, and that it is tried again with the same key.
    const owner = await signInAccount(api, f.accountId)
    await until(async () =>
      (await (await fetch(`${api.url}/dashboard/programs/${f.programId}/payouts`, { headers: { cookie: owner } })).text()).includes(
        'PayPal has not answered a send yet (1 try): INTERNAL_SERVER_ERROR: An internal server error occurred.',
      ),
    )
    paypal.mode = 'ok'
    await pollUntil(second.payout_id, 'paid')
    const tries = paypal.creates.slice(creates)
    expect(tries.length).toBeGreaterThanOrEqual(2)
    expect(new Set(tries.map((t) => `${t.requestId}|${t.senderBatchId}`)).size).toBe(1)
    expect(paypal.batches.filter((b) => b.sender_batch_id === tries[0]!.senderBatchId)).toHaveLength(1)
  })

  test('a duplicate-batch answer is never a failure: the original batch is taken from its link and polled', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const ada = await p.partner(f, 'paypal', 'ada@paypal.test')
    await p.sale(ada, 10000)
    const [made] = await p.run(f)
    // PayPal makes the batch but its answer is lost; by the resend it has forgotten the request id.
    paypal.mode = 'lose'
    const before = paypal.batches.length
    await send(f, { rail: 'paypal' })
    await until(async () => paypal.batches.length === before + 1)
    paypal.mode = 'ok'
    paypal.forgetRequestIds()
    await pollUntil(made.payout_id, 'paid')
    expect(paypal.batches).toHaveLength(before + 1)
    expect((await p.payout(made.payout_id)).reference).toBe(paypal.batches.at(-1)!.items[0]!.payout_item_id)
  })

  test('bad input: an unknown rail is 400 naming rail; a rail without credentials is 400 naming its variables', async () => {
    const f = await api.setupProgram()
    expectFailure(await send(f, { rail: 'venmo' }), 400, 'rail must be paypal or stripe')
    expectFailure(await send(f, {}), 400, 'rail must be paypal or stripe')
    expectFailure(await send(f, { rail: 'stripe' }), 400, 'rail stripe is not configured on this server: set STRIPE_SECRET_KEY')
    expectFailure(await send(f, { rail: 'paypal', payout_ids: ['x'] }), 400, 'payout_ids must be a list of payout ids')
    expect((await api.admin('POST', '/programs/999999/payouts/send', { rail: 'paypal' })).status).toBe(404)
  })
})

describe('the dashboard', () => {
  test('"Send with PayPal" confirms the total per currency, sends, and the page shows processing, then paid or failed with the reason', async () => {
    const f = await api.setupProgram({ holding_period_days: 0 })
    const ada = await p.partner(f, 'paypal', 'ada@paypal.test')
    const bo = await p.partner(f, 'paypal', 'gone@paypal.test')
    await p.sale(ada, 10000)
    await p.sale(ada, 20000, 'EUR')
    await p.sale(bo, 5000)
    const made = await p.run(f)
    paypal.outcome = (receiver) => (receiver === 'gone@paypal.test' ? { status: 'RETURNED' } : { status: 'SUCCESS' })
    const owner = await signInAccount(api, f.accountId)
    const path = `/dashboard/programs/${f.programId}/payouts`
    const shown = await (await fetch(`${api.url}${path}`, { headers: { cookie: owner } })).text()
    expect(shown).toContain('data-confirm="Send 3 payouts with PayPal now: EUR 20.00, USD 15.00? This moves money."')
    expect(shown).toContain('Stripe: not configured on this server (set STRIPE_SECRET_KEY).')
    const csrf = shown.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const sent = await fetch(`${api.url}${path}/send`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: owner, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, rail: 'paypal' }).toString(),
    })
    expect(sent.status).toBe(303)
    expect(sent.headers.get('location')).toBe(`${path}?done=payouts_sent&count=3#send`)
    const failedId = made.find((m) => m.partner_id === bo.partnerId).payout_id
    await pollUntil(failedId, 'failed')
    for (const m of made) if (m.payout_id !== failedId) await pollUntil(m.payout_id, 'paid')
    const after = await (await fetch(`${api.url}${path}`, { headers: { cookie: owner } })).text()
    const row = after.slice(after.indexOf(`data-payout="${failedId}"`), after.indexOf('</tr>', after.indexOf(`data-payout="${failedId}"`)))
    expect(row).toContain('<b>failed</b>')
    expect(row).toContain('PayPal RETURNED')
    expect(after).toContain('PayPal: nothing pending to send.')
  })
})
