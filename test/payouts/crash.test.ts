// docs/decisions.md, Paying partners: exactly once, whatever happens. The server is killed with -9
// while the fake PayPal holds the batch request it has already taken; after the restart the send
// is resent with the same PayPal-Request-Id and sender_batch_id, PayPal answers the original
// batch, and every payout is paid by exactly one item of one batch. The same with Stripe: one
// transfer per payout, resent with the same Idempotency-Key.
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN } from '../helpers.ts'
import { spawnServer } from '../runtime/spawn.ts'
import { PAYPAL_ENV, startFakePayPal } from './fake-paypal.ts'
import { STRIPE_ENV, startFakeStripe } from './fake-stripe.ts'

const call = (url: string, method: string, path: string, body?: unknown, token = ADMIN_TOKEN) =>
  fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json() as Promise<any>)

async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return
    await Bun.sleep(50)
  }
  throw new Error('timed out')
}

/** A program whose three partners, paid as `details(i)` says, each have a sale due now; answers its id. */
async function owedProgram(url: string, details: (i: number) => Record<string, string>): Promise<number> {
  const admin = (method: string, path: string, body?: unknown) => call(url, method, `/api/v1/admin${path}`, body)
  const account = await admin('POST', '/accounts', { email: 'owner@crash.test' })
  const program = await admin('POST', '/programs', {
    account_id: account.data.account_id,
    name: 'Crash Shop',
    domain: 'shop.test',
    commission_type: 'percent',
    commission_rate: 10,
    holding_period_days: 0,
  })
  const programId = program.data.program_id
  const key = program.data.api_key
  for (let i = 0; i < 3; i++) {
    const partner = await admin('POST', `/programs/${programId}/partners`, {
      name: `P${i}`,
      email: `p${i}@partners.test`,
    })
    const partnerId = partner.data.partner_id
    await admin('PATCH', `/programs/${programId}/partners/${partnerId}`, details(i))
    await admin('POST', `/programs/${programId}/links`, { partner_id: partnerId, short_link: `crash${i}` })
    const click = await call(url, 'POST', '/api/v1/track/click', { affiliate_url: `https://shop.test/?aff=crash${i}` })
    await call(url, 'POST', '/api/v1/track/lead', { click_id: click.click_id, customer_key: `c${i}` }, key)
    const sale = await call(
      url,
      'POST',
      '/api/v1/track/sale',
      { transaction_id: `t${i}`, customer_key: `c${i}`, amount_cents: 10000 * (i + 1) },
      key,
    )
    expect(sale.error).toBeNull()
  }
  return programId
}

/**
 * Three payouts owed (partners paid as `details(i)` says) sent by `rail` while the fake holds its
 * first request: the server is killed with -9 once `taken()` says the fake has it, the fake lets
 * go, and the server started again over the same file runs until every payout is paid.
 */
async function crashMidSend(
  env: Record<string, string>,
  rail: 'paypal' | 'stripe',
  fake: { mode: 'ok' | 'hold' | 'lose' | 'fail' | 'reject'; release(): void },
  taken: () => boolean,
  details: (i: number) => Record<string, string>,
) {
  let server = await spawnServer([process.execPath, 'src/main.ts'], env)
  const admin = (method: string, path: string, body?: unknown) => call(server.url, method, `/api/v1/admin${path}`, body)
  const programId = await owedProgram(server.url, details)
  const made = (await admin('POST', `/programs/${programId}/payouts`)).data
  expect(made).toHaveLength(3)

  fake.mode = 'hold'
  expect((await admin('POST', `/programs/${programId}/payouts/send`, { rail })).data.sending).toBe(3)
  await until(taken)
  server.kill('SIGKILL')
  await server.exited
  fake.mode = 'ok'
  fake.release()

  server = await spawnServer([process.execPath, 'src/main.ts'], env)
  const payouts = async () => (await admin('GET', `/programs/${programId}/payouts`)).data as any[]
  await until(async () => (await payouts()).every((p) => p.status === 'paid'))
  return { server, admin, programId, made, payouts }
}

test('kill -9 while PayPal holds the batch request: after the restart one batch, one item per payout, each paid once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-payout-crash-'))
  const paypal = await startFakePayPal()
  const env = { DATABASE_PATH: join(dir, 'svc.db'), ...PAYPAL_ENV(paypal.url) }
  try {
    const { server, admin, programId, made, payouts } = await crashMidSend(
      env,
      'paypal',
      paypal,
      () => paypal.batches.length === 1,
      (i) => ({ payout_method: 'paypal', payout_details: `p${i}@paypal.test` }),
    )

    expect(paypal.batches).toHaveLength(1)
    expect(paypal.creates.length).toBeGreaterThanOrEqual(2)
    const [batch] = paypal.batches
    expect(new Set(paypal.creates.map((c) => `${c.requestId}|${c.senderBatchId}`))).toEqual(
      new Set([`${batch!.requestId}|${batch!.sender_batch_id}`]),
    )
    expect(batch!.items.map((i) => i.payout_item.sender_item_id).sort()).toEqual(made.map((p: any) => `payout_${p.payout_id}`).sort())
    const final = await payouts()
    expect(final.map((p) => p.reference).sort()).toEqual(batch!.items.map((i) => i.payout_item_id).sort())
    // Each partner was emailed once that they were paid.
    await until(
      async () =>
        (await admin('GET', `/emails?program_id=${programId}`)).data.filter((m: any) => m.subject.includes('paid you')).length === 3,
    )
    await server.stop()
  } finally {
    await paypal.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 90_000)

test('kill -9 while Stripe holds the transfer request: after the restart one transfer per payout, each paid once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-payout-crash-'))
  const stripe = await startFakeStripe()
  const env = { DATABASE_PATH: join(dir, 'svc.db'), ...STRIPE_ENV(stripe.url) }
  try {
    const { server, made, payouts } = await crashMidSend(
      env,
      'stripe',
      stripe,
      () => stripe.transfers.length === 1,
      (i) => {
        const account = `acct_crash${i}`
        stripe.accounts.set(account, { id: account, type: 'express', metadata: {}, details_submitted: true })
        return { payout_method: 'stripe', payout_details: account }
      },
    )
    expect(stripe.transfers.map((t) => t.transfer_group).sort()).toEqual(made.map((p: any) => `payout_${p.payout_id}`).sort())
    const held = made.find((p: any) => stripe.requests[0]!.key === `svc-payout-${p.payout_id}`)
    expect(stripe.requests.filter((r) => r.key === `svc-payout-${held.payout_id}`).length).toBeGreaterThanOrEqual(2)
    const final = await payouts()
    expect(final.map((p) => p.reference).sort()).toEqual(stripe.transfers.map((t) => t.id).sort())
    await server.stop()
  } finally {
    await stripe.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 90_000)

test('SIGTERM while PayPal holds the batch request: the server still exits 0 within 10 s, and the restart finishes the send', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-payout-term-'))
  const paypal = await startFakePayPal()
  const env = { DATABASE_PATH: join(dir, 'svc.db'), ...PAYPAL_ENV(paypal.url) }
  try {
    let server = await spawnServer([process.execPath, 'src/main.ts'], env)
    const admin = (method: string, path: string, body?: unknown) => call(server.url, method, `/api/v1/admin${path}`, body)
    const programId = await owedProgram(server.url, (i) => ({ payout_method: 'paypal', payout_details: `p${i}@paypal.test` }))
    await admin('POST', `/programs/${programId}/payouts`)
    paypal.mode = 'hold'
    await admin('POST', `/programs/${programId}/payouts/send`, { rail: 'paypal' })
    await until(() => paypal.batches.length === 1)
    const started = Date.now()
    expect(await server.stop()).toBe(0)
    expect(Date.now() - started).toBeLessThan(10_000)
    paypal.mode = 'ok'
    paypal.release()
    server = await spawnServer([process.execPath, 'src/main.ts'], env)
    await until(async () => ((await admin('GET', `/programs/${programId}/payouts`)).data as any[]).every((p) => p.status === 'paid'))
    expect(paypal.batches).toHaveLength(1)
    await server.stop()
  } finally {
    await paypal.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 90_000)
