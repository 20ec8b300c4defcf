// Partner groups (docs/decisions.md, "Groups, two-sided rewards and bonuses"; "Turn 4, settled"):
// the operator routes, a partner's group_id, terms resolving partner → group → program on sales,
// in the partners list, its filter and CSV, and a group's own join page.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, type Api, expectFailure, type Fixture } from '../../helpers.ts'
import { followLink } from '../pages/sessions.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'

let api: Api
let k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const groupOf = async (f: Fixture, body: Record<string, unknown>) => {
  const made = await api.admin('POST', `/programs/${f.programId}/groups`, body)
  expect(made.status).toBe(201)
  return made.body.data.group_id as number
}
/** A sale of a fresh customer of partner link `f` for 100.00 USD; answers its commission in cents. */
const paid = async (f: Fixture) => {
  const buyer = unique('buyer')
  await k.customer(f, buyer)
  const sale = await k.sale(f, { transaction_id: unique('txn'), customer_key: buyer, amount_cents: 10000 })
  expect(sale.status).toBe(200)
  return sale.body.data.commission?.amount_cents as number
}

describe('the group routes', () => {
  test('POST answers 201 with group_id and the group; GET lists them with their partner counts; PATCH changes; null terms are the program’s', async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 20 })
    const made = await api.admin('POST', `/programs/${f.programId}/groups`, {
      name: 'Agencies',
      commission_type: 'percent',
      commission_rate: 30,
      recurring_months: 6,
      holding_period_days: 14,
      discount: { coupon_id: 'AGENCY20', description: '20% off the first order' },
      partner_signup: 'approval',
    })
    expect(made.status).toBe(201)
    const id = made.body.data.group_id
    expect(id).toBeInteger()
    expect(made.body.data).toMatchObject({
      program_id: f.programId,
      name: 'Agencies',
      commission_type: 'percent',
      commission_rate: 30,
      recurring_months: 6,
      holding_period_days: 14,
      discount: { coupon_id: 'AGENCY20', description: '20% off the first order' },
      partner_signup: 'approval',
      partners: 0,
    })
    const plain = await api.admin('POST', `/programs/${f.programId}/groups`, { name: 'Affiliates' })
    expect(plain.body.data).toMatchObject({ commission_type: null, commission_rate: null, discount: null, partner_signup: null })
    const moved = await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: id })
    expect(moved.body.data).toMatchObject({ partner_id: f.partnerId, group_id: id })
    const listed = await api.admin('GET', `/programs/${f.programId}/groups`)
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((g: { name: string; partners: number }) => [g.name, g.partners])).toEqual([
      ['Agencies', 1],
      ['Affiliates', 0],
    ])
    const changed = await api.admin('PATCH', `/groups/${id}`, { commission_rate: null, discount: null, name: 'Agency partners' })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toMatchObject({
      name: 'Agency partners',
      commission_rate: null,
      discount: null,
      recurring_months: 6,
      partners: 1,
    })
  })

  test('DELETE answers 409 while a partner is in the group, 200 once it is empty; unknown ids 404', async () => {
    const f = await api.setupProgram()
    const id = await groupOf(f, { name: 'Influencers' })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: id })
    expectFailure(
      await api.admin('DELETE', `/groups/${id}`),
      409,
      'This group has partners and cannot be deleted: move them to another group first',
    )
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: null })
    const removed = await api.admin('DELETE', `/groups/${id}`)
    expect(removed.status).toBe(200)
    expect(removed.body.data).toEqual({ group_id: id, deleted: true })
    expect((await api.admin('GET', `/programs/${f.programId}/groups`)).body.data).toEqual([])
    expectFailure(await api.admin('DELETE', `/groups/${id}`), 404, 'Group not found')
    expectFailure(await api.admin('PATCH', `/groups/999999`, { name: 'x' }), 404, 'Group not found')
    expectFailure(await api.admin('POST', `/programs/999999/groups`, { name: 'x' }), 404, 'Program not found')
    expectFailure(await api.admin('GET', `/programs/999999/groups`), 404, 'Program not found')
  })

  test('bad fields are 400 naming them and store nothing', async () => {
    const f = await api.setupProgram({ commission_type: 'fixed', commission_rate: 500 })
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name is required and must be at most 200 characters'],
      [{ name: 'x', commission_rate: -1 }, "commission_rate must be a positive number, or null for the program's"],
      [{ name: 'x', commission_type: 'percent' }, 'commission_rate must be at most 100 for the percent and recurring_percent types'],
      [{ name: 'x', holding_period_days: 400 }, "holding_period_days must be a whole number from 0 to 365, or null for the program's"],
      [{ name: 'x', partner_signup: 'always' }, "partner_signup must be off, approval or open, or null for the program's"],
      [
        { name: 'x', discount: { coupon_id: '' } },
        "discount must be { coupon_id, description }: the processor's coupon id (1 to 255 characters) and what it gives in words (1 to 300), or null",
      ],
    ]
    for (const [body, message] of cases) expectFailure(await api.admin('POST', `/programs/${f.programId}/groups`, body), 400, message)
    expect((await api.admin('GET', `/programs/${f.programId}/groups`)).body.data).toEqual([])
    const unauthorized = await fetch(`${api.url}/api/v1/admin/programs/${f.programId}/groups`, {
      headers: { authorization: 'Bearer nope' },
    })
    expect(unauthorized.status).toBe(401)
    expect(ADMIN_TOKEN).toBeTruthy()
  })

  test("a partner's group_id must be a group of its program (POST and PATCH), and the rate it would be paid must fit the type", async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10 })
    const other = await api.setupProgram()
    const foreign = await groupOf(other, { name: 'Elsewhere' })
    const message = 'group_id must be the id of a group of this program, or null for none'
    expectFailure(await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: foreign }), 400, message)
    expectFailure(await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'x', group_id: foreign }), 400, message)
    expectFailure(await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'x', group_id: 'one' }), 400, message)
    const fixed = await groupOf(f, { name: 'Fixed', commission_type: 'fixed', commission_rate: 500 })
    // The group pays 500 fixed; a partner of it who asks for a percent type keeps the group's 500 as its rate: no percent.
    expectFailure(
      await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'y', group_id: fixed, commission_type: 'percent' }),
      400,
      'commission_rate must be at most 100 for the percent and recurring_percent types',
    )
    const made = await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'In fixed', group_id: fixed })
    expect(made.status).toBe(201)
    const shown = await api.admin('GET', `/programs/${f.programId}/partners?group_id=${fixed}`)
    expect(shown.body.data.map((p: { partner_id: number; group_id: number }) => [p.partner_id, p.group_id])).toEqual([
      [made.body.data.partner_id, fixed],
    ])
    expectFailure(await api.admin('GET', `/programs/${f.programId}/partners?group_id=x`), 400, 'group_id must be a group id')
  })
})

describe('terms resolve partner → group → program', () => {
  test("a group's rate pays its partners' sales, a partner's own rate comes first, and moving groups changes later sales only", async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10 })
    const agencies = await groupOf(f, { name: 'Agencies', commission_rate: 30 })
    const fixed = await groupOf(f, { name: 'Flat', commission_type: 'fixed', commission_rate: 7 })
    expect(await paid(f)).toBe(1000)
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: agencies })
    expect(await paid(f)).toBe(3000)
    const sale = (await api.admin('GET', `/programs/${f.programId}/sales`)).body.data[0]
    expect(sale.attribution.commission).toMatchObject({ rate: 30, terms: 'group' })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { commission_rate: 25 })
    expect(await paid(f)).toBe(2500)
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { commission_rate: null, group_id: fixed })
    expect(await paid(f)).toBe(700)
    // The group's terms change: the next sale pays the new ones; booked commissions keep theirs.
    await api.admin('PATCH', `/groups/${fixed}`, { commission_rate: 9 })
    expect(await paid(f)).toBe(900)
    const amounts = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data.map(
      (c: { amount_cents: number }) => c.amount_cents,
    )
    expect(amounts).toEqual([900, 700, 2500, 3000, 1000])
  })

  test('the partners CSV shows the group and the terms each partner is paid by', async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10, holding_period_days: 30 })
    const g = await groupOf(f, { name: 'Agencies, EU', commission_rate: 30, holding_period_days: 7 })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: g, recurring_months: 3 })
    const reply = await fetch(`${api.url}/api/v1/admin/programs/${f.programId}/partners.csv`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    const [header, row] = (await reply.text()).split('\r\n')
    expect(header).toEndWith('group_id,group_name,paid_commission_type,paid_commission_rate,paid_recurring_months,paid_holding_period_days')
    expect(row).toEndWith(`,${g},"Agencies, EU",percent,30,3,7`)
  })
})

describe("a group's join page", () => {
  test('/join/:program_id/:group_id shows its terms and discount and puts applicants in the group; its own signup wins over the program’s', async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10, partner_signup: 'off' })
    const open = await groupOf(f, {
      name: 'Influencers',
      commission_rate: 35,
      discount: { coupon_id: 'INFL20', description: '20% off your first year' },
      partner_signup: 'open',
    })
    const inherits = await groupOf(f, { name: 'Affiliates' })
    const page = await fetch(`${api.url}/join/${f.programId}/${open}`)
    expect(page.status).toBe(200)
    const text = await page.text()
    expect(text).toContain('35% of')
    expect(text).toContain('20% off your first year')
    expect(text).toContain(`action="/join/${f.programId}/${open}"`)
    // The program takes no applications, and a group without its own signup takes the program's.
    expect((await fetch(`${api.url}/join/${f.programId}`)).status).toBe(404)
    expect((await fetch(`${api.url}/join/${f.programId}/${inherits}`)).status).toBe(404)
    expect((await fetch(`${api.url}/join/${f.programId}/999999`)).status).toBe(404)
    const email = `${unique('ada')}@creator.test`
    const applied = await api.call('POST', `/join/${f.programId}/${open}`, { body: { name: 'Ada', email } })
    expect(applied.status).toBe(202)
    const partner = (await api.admin('GET', `/programs/${f.programId}/partners?group_id=${open}`)).body.data[0]
    expect(partner).toMatchObject({ email, status: 'active', group_id: open })
    // Its portal tells the partner what their audience gets, and the group's rate.
    const link = await api.admin('POST', `/programs/${f.programId}/partners/${partner.partner_id}/portal-link`)
    const signedIn = await followLink(api, link.body.data.url)
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!
    const portal = await (await fetch(`${api.url}/partner`, { headers: { cookie } })).text()
    expect(portal).toContain('What your audience gets')
    expect(portal).toContain('20% off your first year')
    expect(portal).toContain('35% of')
  })

  test('a group without its own signup takes the program’s; group_id in a JSON body picks the group too', async () => {
    const f = await api.setupProgram({ partner_signup: 'approval' })
    const g = await groupOf(f, { name: 'Agencies' })
    const email = `${unique('bob')}@agency.test`
    const applied = await api.call('POST', `/join/${f.programId}`, { body: { name: 'Bob', email, group_id: g } })
    expect(applied.status).toBe(202)
    const partner = (await api.admin('GET', `/programs/${f.programId}/partners?status=pending`)).body.data[0]
    expect(partner).toMatchObject({ email, group_id: g })
    expect((await api.call('POST', `/join/${f.programId}`, { body: { name: 'C', email: 'c@x.test', group_id: 999999 } })).status).toBe(404)
  })
})
