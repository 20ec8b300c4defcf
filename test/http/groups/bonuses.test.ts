// Bonuses (docs/decisions.md, Groups: "a ledger entry of kind bonus, pending for the holding period
// like a commission; chained, in statements, payouts, the commissions list and CSV,
// commission.created with kind bonus"), and the holding period fixed when an entry is booked.
import { beforeAll, describe, expect, test } from 'bun:test'
import { verifyStatement } from '../../../src/domain/statement.ts'
import { ADMIN_TOKEN, type Api, days, expectFailure, type Fixture } from '../../helpers.ts'
import { hookedServer } from '../../outbox/receiver.ts'
import { followLink } from '../pages/sessions.ts'
import { type Kit, unique } from '../track/kit.ts'

const server = hookedServer()
let api: Api
let k: Kit
beforeAll(() => ({ api, k } = server))

const bonus = (f: Fixture, body: Record<string, unknown>, partnerId = f.partnerId) =>
  api.admin('POST', `/programs/${f.programId}/partners/${partnerId}/bonuses`, body)
const entries = async (f: Fixture) => (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
/** The verified commission.created payloads of the program, once `count` have arrived at the real receiver. */
async function created(f: Fixture, secret: string, count: number) {
  const { receiver } = server
  const mine = () => receiver.hits.filter((h) => h.json.type === 'commission.created' && h.json.data.program_id === f.programId)
  await receiver.waitFor(() => mine().length >= count)
  return mine().map((hit) => receiver.verify(hit, secret) as { data: Record<string, any> })
}

describe('POST /programs/:id/partners/:partner_id/bonuses', () => {
  test('books a bonus entry: pending for the holding period, then due, then paid out with the commissions', async () => {
    const f = await api.setupProgram({ holding_period_days: 10 })
    const hook = await api.admin('POST', `/programs/${f.programId}/webhooks`, { url: server.receiver.url, events: ['commission.created'] })
    const booked = await bonus(f, { amount_cents: 5000, currency: 'USD', description: 'Launch week top referrer' })
    expect(booked.status).toBe(201)
    const at = api.clock.now()
    expect(booked.body.data).toMatchObject({
      kind: 'bonus',
      sale_id: null,
      partner_id: f.partnerId,
      program_id: f.programId,
      amount_cents: 5000,
      currency: 'USD',
      description: 'Launch week top referrer',
      status: 'pending',
      flags: [],
      created_at: new Date(at).toISOString(),
      due_at: new Date(at + days(10)).toISOString(),
    })
    const listed = await entries(f)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ kind: 'bonus', status: 'pending', amount_cents: 5000 })
    // A webhook receiver is told as of any commission.
    const [event] = await created(f, hook.body.data.secret, 1)
    expect(event!.data).toMatchObject({ kind: 'bonus', amount_cents: 5000, description: 'Launch week top referrer', status: 'pending' })
    // With a commission of the same partner, both are paid in one payout once due.
    const buyer = unique('buyer')
    await k.customer(f, buyer)
    await k.sale(f, { transaction_id: unique('txn'), customer_key: buyer, amount_cents: 10000 })
    expect((await api.admin('POST', `/programs/${f.programId}/payouts`)).body.data).toEqual([])
    api.clock.advance(days(10))
    expect((await entries(f)).map((e: { kind: string; status: string }) => `${e.kind} ${e.status}`)).toEqual([
      'commission due',
      'bonus due',
    ])
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`)
    expect(run.status).toBe(201)
    expect(run.body.data).toHaveLength(1)
    expect(run.body.data[0]).toMatchObject({ partner_id: f.partnerId, currency: 'USD', amount_cents: 6000, commissions: 2 })
    const detail = await api.admin('GET', `/payouts/${run.body.data[0].payout_id}`)
    expect(detail.body.data[0].entries.map((e: { kind: string }) => e.kind).sort()).toEqual(['bonus', 'commission'])
    expect((await entries(f)).every((e: { status: string }) => e.status === 'in_payout')).toBe(true)
  })

  test('the bonus is in the partner’s hash chain and signed statement, the commissions CSV and the portal', async () => {
    const f = await api.setupProgram()
    await bonus(f, { amount_cents: 1234, currency: 'EUR', description: 'Contest, 1st place' })
    const month = new Date(api.clock.now()).toISOString().slice(0, 7)
    const statement = (await api.admin('GET', `/programs/${f.programId}/partners/${f.partnerId}/statements/${month}`)).body.data
    expect(statement.entries.map((e: { kind: string; amount_cents: number }) => [e.kind, e.amount_cents])).toEqual([['bonus', 1234]])
    expect(await verifyStatement(statement)).toMatchObject({ ok: true, entries: 1 })
    const csv = await (
      await fetch(`${api.url}/api/v1/admin/programs/${f.programId}/commissions.csv`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).text()
    expect(csv.split('\r\n')[1]).toMatch(
      new RegExp(`^\\d+,[^,]+,bonus,${f.partnerId},[^,]*,,12\\.34,EUR,pending,,false,[^,]+,"Contest, 1st place"$`),
    )
    const link = await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)
    const cookie = (await followLink(api, link.body.data.url)).headers.get('set-cookie')!.split(';')[0]!
    const portal = await (await fetch(`${api.url}/partner`, { headers: { cookie } })).text()
    expect(portal).toContain('bonus: Contest, 1st place')
  })

  test('bad input is 400 naming the field, an unknown partner 404, and nothing is booked', async () => {
    const f = await api.setupProgram()
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'USD', description: 'x' }, 'amount_cents is required and must be a positive integer'],
      [{ amount_cents: 0, currency: 'USD', description: 'x' }, 'amount_cents is required and must be a positive integer'],
      [{ amount_cents: 1.5, currency: 'USD', description: 'x' }, 'amount_cents is required and must be a positive integer'],
      [{ amount_cents: 100, currency: 'JPY', description: 'x' }, 'currency must be one of the currencies of the program'],
      [{ amount_cents: 100, currency: 'USD' }, 'description is required and must be at most 500 characters'],
      [{ amount_cents: 100, currency: 'USD', description: 'x'.repeat(501) }, 'description is required and must be at most 500 characters'],
      [
        { amount_cents: Number.MAX_SAFE_INTEGER, currency: 'USD', description: 'x' },
        "amount_cents would make the partner's unpaid commissions in USD larger than 9007199254740991 cents",
      ],
    ]
    await bonus(f, { amount_cents: 1, currency: 'USD', description: 'first' })
    for (const [body, message] of cases) expectFailure(await bonus(f, body), 400, message)
    expectFailure(await bonus(f, { amount_cents: 100, currency: 'USD', description: 'x' }, 999999), 404, 'Partner not found')
    expect(await entries(f)).toHaveLength(1)
  })
})

describe('the holding period is fixed when an entry is booked', () => {
  test("a group's holding period times its partners' commissions and bonuses; a later change moves only later entries", async () => {
    const f = await api.setupProgram({ holding_period_days: 30 })
    const made = await api.admin('POST', `/programs/${f.programId}/groups`, { name: 'Fast pay', holding_period_days: 7 })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: made.body.data.group_id })
    const buyer = unique('buyer')
    await k.customer(f, buyer)
    await k.sale(f, { transaction_id: unique('txn'), customer_key: buyer, amount_cents: 10000 })
    await bonus(f, { amount_cents: 500, currency: 'USD', description: 'welcome' })
    // The group now waits 60 days, and the program 1: the entries booked keep their 7.
    await api.admin('PATCH', `/groups/${made.body.data.group_id}`, { holding_period_days: 60 })
    await api.admin('PATCH', `/programs/${f.programId}`, { holding_period_days: 1 })
    const second = unique('buyer')
    await k.customer(f, second)
    await k.sale(f, { transaction_id: unique('txn'), customer_key: second, amount_cents: 20000 })
    api.clock.advance(days(7))
    const statuses = (await entries(f)).map((e: { kind: string; amount_cents: number; status: string }) => [
      e.kind,
      e.amount_cents,
      e.status,
    ])
    expect(statuses).toEqual([
      ['commission', 2000, 'pending'],
      ['bonus', 500, 'due'],
      ['commission', 1000, 'due'],
    ])
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`)
    expect(run.body.data.map((p: { amount_cents: number }) => p.amount_cents)).toEqual([1500])
  })
})
