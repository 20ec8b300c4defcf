// The operator API's partner routes (docs/decisions.md, First run and Partners who join on their
// own): edit, delete, status, the partners list's filters, and the three CSV exports.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, type Api, expectFailure } from '../../helpers.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'

let api: Api
let k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const csv = async (path: string) => {
  const reply = await fetch(`${api.url}/api/v1/admin${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  return { status: reply.status, type: reply.headers.get('content-type'), text: await reply.text() }
}
const lines = (text: string) => text.split('\r\n').filter((l) => l !== '')

describe('PATCH and DELETE a partner', () => {
  test('PATCH changes name, email, terms and payout details; null puts a term back; every read shows them', async () => {
    const f = await api.setupProgram()
    const path = `/programs/${f.programId}/partners/${f.partnerId}`
    const changed = await api.admin('PATCH', path, {
      name: 'Ada Lovelace',
      email: 'ada@partner.test',
      commission_type: 'recurring_percent',
      commission_rate: 30,
      recurring_months: 12,
      payout_method: 'bank',
      payout_details: 'Ada Lovelace, IBAN DE89 3704 0044 0532 0130 00',
    })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toMatchObject({
      partner_id: f.partnerId,
      program_id: f.programId,
      name: 'Ada Lovelace',
      email: 'ada@partner.test',
      status: 'active',
      commission_type: 'recurring_percent',
      commission_rate: 30,
      recurring_months: 12,
      payout_method: 'bank',
      payout_details: 'Ada Lovelace, IBAN DE89 3704 0044 0532 0130 00',
    })
    expect(changed.body.data).not.toHaveProperty('deleted_at')
    const listed = await api.admin('GET', `/programs/${f.programId}/partners`)
    expect(listed.body.data[0]).toEqual(changed.body.data)
    const reset = await api.admin('PATCH', path, { commission_type: null, commission_rate: null, recurring_months: null })
    expect(reset.body.data).toMatchObject({ commission_type: null, commission_rate: null, recurring_months: null, name: 'Ada Lovelace' })
  })

  test('PATCH refuses a bad field with 400 naming it, and an unknown partner with 404', async () => {
    const f = await api.setupProgram()
    const path = `/programs/${f.programId}/partners/${f.partnerId}`
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not-an-email' }, 'email must be an email address'],
      [{ payout_method: 'cash' }, 'payout_method must be paypal, wise, bank or stripe'],
      [{ commission_rate: -1 }, "commission_rate must be a positive number, or null for the program's"],
      [
        { commission_type: 'percent', commission_rate: 150 },
        'commission_rate must be at most 100 for the percent and recurring_percent types',
      ],
      [{ recurring_months: 0 }, 'recurring_months must be a whole number from 1 to 1200, or null for no limit'],
      [{ payout_details: 'x'.repeat(1001) }, 'payout_details must be a string of at most 1000 characters'],
    ]
    for (const [body, message] of cases) expectFailure(await api.admin('PATCH', path, body), 400, message)
    expectFailure(await api.admin('PATCH', `/programs/${f.programId}/partners/999999`, { name: 'x' }), 404, 'Partner not found')
    const other = await api.setupProgram()
    expectFailure(await api.admin('PATCH', `/programs/${other.programId}/partners/${f.partnerId}`, { name: 'x' }), 404, 'Partner not found')
  })

  test('DELETE removes a partner without sales from every list, and its links stop; one with sales answers 409', async () => {
    const f = await api.setupProgram()
    await k.clickId(f)
    const gone = await api.admin('DELETE', `/programs/${f.programId}/partners/${f.partnerId}`)
    expect(gone.status).toBe(200)
    expect(gone.body.data).toEqual({ partner_id: f.partnerId, deleted: true })
    expect((await api.admin('GET', `/programs/${f.programId}/partners`)).body.data).toEqual([])
    expect((await k.click(f)).status).toBe(410)
    expectFailure(await api.admin('DELETE', `/programs/${f.programId}/partners/${f.partnerId}`), 404, 'Partner not found')

    const g = await api.setupProgram()
    const key = unique('buyer')
    await k.customer(g, key)
    expect((await k.sale(g, { transaction_id: unique('txn'), customer_key: key })).status).toBe(200)
    expectFailure(
      await api.admin('DELETE', `/programs/${g.programId}/partners/${g.partnerId}`),
      409,
      'This partner has sales and cannot be deleted: suspend them instead',
    )
    expect((await api.admin('GET', `/programs/${g.programId}/partners`)).body.data).toHaveLength(1)
  })
})

describe('partner status', () => {
  test("suspend: the partner's links answer like a link turned off; unsuspend brings them back", async () => {
    const f = await api.setupProgram()
    const suspended = await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/suspend`)
    expect(suspended.status).toBe(200)
    expect(suspended.body.data.status).toBe('suspended')
    const click = await k.click(f)
    expect(click.status).toBe(410)
    expectFailure(
      await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/suspend`),
      409,
      'Partner is suspended, not active',
    )
    const back = await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/unsuspend`)
    expect(back.body.data.status).toBe('active')
    expect((await k.click(f)).status).toBe(200)
    expectFailure(
      await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/approve`),
      409,
      'Partner is active, not pending',
    )
    expectFailure(await api.admin('POST', `/programs/${f.programId}/partners/999999/suspend`), 404, 'Partner not found')
  })

  test('the partners list filters by ?status= and by ?q= (part of the name or email, any case)', async () => {
    const f = await api.setupProgram()
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { name: 'Grace Hopper', email: 'grace@navy.test' })
    const bob = await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'Bob', email: 'bob@HOPPER-fans.test' })
    const carol = await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'Carol' })
    await api.admin('POST', `/programs/${f.programId}/partners/${carol.body.data.partner_id}/suspend`)
    const ids = async (query: string) =>
      (await api.admin('GET', `/programs/${f.programId}/partners${query}`)).body.data.map((p: { partner_id: number }) => p.partner_id)
    expect(await ids('?q=hopper')).toEqual([bob.body.data.partner_id, f.partnerId])
    expect(await ids('?q=NAVY')).toEqual([f.partnerId])
    expect(await ids('?q=%25')).toEqual([])
    expect(await ids('?status=suspended')).toEqual([carol.body.data.partner_id])
    expect(await ids('?status=active&q=bob')).toEqual([bob.body.data.partner_id])
    expectFailure(
      await api.admin('GET', `/programs/${f.programId}/partners?status=gone`),
      400,
      'status must be one of: pending, active, rejected, suspended',
    )
  })
})

describe('exports and date filters', () => {
  test('sales, commissions and partners CSVs: header, every row, quoting, formula cells, amounts in major units', async () => {
    const f = await api.setupProgram({ name: 'CSV shop' })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, {
      name: '=HYPERLINK("http://x.test","a, b")',
      payout_method: 'paypal',
      payout_details: 'pay@partner.test',
    })
    const keys = [unique('a'), unique('b')]
    for (const key of keys) await k.customer(f, key)
    const txn = unique('txn')
    expect((await k.sale(f, { transaction_id: txn, customer_key: keys[0], amount_cents: 12345 })).status).toBe(200)
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: keys[1], amount_cents: 500, currency: 'EUR' })).status).toBe(200)
    expect((await k.refund(f, { transaction_id: txn })).status).toBe(200)

    const sales = await csv(`/programs/${f.programId}/sales.csv`)
    expect(sales.status).toBe(200)
    expect(sales.type).toBe('text/csv; charset=utf-8')
    const saleLines = lines(sales.text)
    expect(saleLines[0]).toBe('sale_id,created_at,transaction_id,customer_key,partner_id,partner_name,amount,currency,status,test_mode')
    expect(saleLines).toHaveLength(3)
    // The partner's name (a formula, here) follows its id, quoted and defused like every text cell.
    const name = `"'=HYPERLINK(""http://x.test"",""a, b"")"`
    expect(saleLines[2]).toMatch(new RegExp(`^\\d+,\\d{4}-\\d\\d-\\d\\dT[^,]+,${txn},${keys[0]},${f.partnerId},`))
    expect(saleLines[2]).toEndWith(`,${f.partnerId},${name},123.45,USD,refunded,false`)
    expect(saleLines[1]).toContain(',5.00,EUR,recorded,false')

    const commissions = lines((await csv(`/programs/${f.programId}/commissions.csv`)).text)
    expect(commissions[0]).toBe(
      'commission_id,created_at,kind,partner_id,partner_name,sale_id,amount,currency,status,flags,test_mode,due_at,description',
    )
    // The reversal's negative amount is a number cell: never prefixed like a formula.
    expect(commissions[1]).toContain(`,reversal,${f.partnerId},${name},`)
    expect(commissions[1]).toMatch(/,\d+,-12\.35,USD,/)
    expect(commissions).toHaveLength(4)
    const reversed = lines((await csv(`/programs/${f.programId}/commissions.csv?status=reversed`)).text)
    // The refunded sale's commission and its reversal entry; the EUR sale's commission is not reversed.
    // (The partner's name holds a comma: the status is found by its cell, not by position.)
    expect(reversed.slice(1).map((l) => `${l.split(',')[2]} ${l.includes(',reversed,') ? 'reversed' : '?'}`)).toEqual([
      'reversal reversed',
      'commission reversed',
    ])

    const partners = lines((await csv(`/programs/${f.programId}/partners.csv`)).text)
    expect(partners[0]).toBe(
      'partner_id,name,email,status,links,created_at,commission_type,commission_rate,payout_method,payout_details,' +
        'group_id,group_name,paid_commission_type,paid_commission_rate,paid_recurring_months,paid_holding_period_days',
    )
    expect(partners[1]).toMatch(
      new RegExp(
        `^${f.partnerId},"'=HYPERLINK\\(""http://x.test"",""a, b""\\)",,active,1,[^,]+,,,paypal,pay@partner.test,,,percent,10,,30$`,
      ),
    )
  })

  test("every text cell a spreadsheet would run (=, +, -, @, tab, CR first) gets a leading ', and no other", async () => {
    const f = await api.setupProgram()
    const names = ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\tcmd', '\rcmd', 'Ada-Lovelace', "Bob's"]
    for (const name of names) expect((await api.admin('POST', `/programs/${f.programId}/partners`, { name })).status).toBe(201)
    const text = (await csv(`/programs/${f.programId}/partners.csv`)).text
    // Newest first; the fixture's own partner is last. A cell holding a CR is quoted (RFC 4180).
    const cells = lines(text)
      .slice(1, names.length + 1)
      .map((l) => l.split(',')[1])
      .reverse()
    expect(cells).toEqual(["'=1+1", "'+1+1", "'-1+1", "'@SUM(A1)", "'\tcmd", `"'\rcmd"`, 'Ada-Lovelace', "Bob's"])
  })

  test('?from= and ?to= are inclusive UTC dates on the sales and commissions lists and CSVs; a bad one is 400 naming it', async () => {
    const f = await api.setupProgram()
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    const key = unique('c')
    await k.customer(f, key)
    const first = day(api.clock.now())
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key })).status).toBe(200)
    api.clock.advance(3 * 86_400_000)
    const later = day(api.clock.now())
    const g = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
    const key2 = unique('d')
    await k.customer(g, key2)
    expect((await k.sale(g, { transaction_id: unique('txn'), customer_key: key2 })).status).toBe(200)
    const count = async (path: string) => (await api.admin('GET', path)).body.data.length
    expect(await count(`/programs/${f.programId}/sales?from=${first}&to=${first}`)).toBe(1)
    expect(await count(`/programs/${f.programId}/sales?from=${later}`)).toBe(0)
    expect(await count(`/programs/${f.programId}/commissions?to=${first}`)).toBe(1)
    expect(await count(`/programs/${g.programId}/commissions?to=${first}`)).toBe(0)
    expect(lines((await csv(`/programs/${f.programId}/sales.csv?from=${later}`)).text)).toHaveLength(1)
    expectFailure(
      await api.admin('GET', `/programs/${f.programId}/sales?from=yesterday`),
      400,
      'from must be an ISO 8601 date such as 2026-11-01',
    )
    expectFailure(
      await api.admin('GET', `/programs/${f.programId}/commissions?to=2026-13-45`),
      400,
      'to must be an ISO 8601 date such as 2026-11-30',
    )
    expectFailure(
      await api.admin('GET', `/programs/${f.programId}/commissions?status=lost`),
      400,
      'status must be one of: pending, due, in_payout, paid, reversed, held',
    )
    expect((await csv(`/programs/${f.programId}/sales.csv?from=nope`)).status).toBe(400)
  })
})

describe("a partner's own terms and recurring_months", () => {
  test("a partner's own rate pays its sales; null puts the program's back", async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10 })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { commission_rate: 30 })
    const first = unique('buyer')
    await k.customer(f, first)
    const sale = await k.sale(f, { transaction_id: unique('txn'), customer_key: first, amount_cents: 10000 })
    expect(sale.body.data.commission.amount_cents).toBe(3000)
    const detail = await api.admin('GET', `/sales/${sale.body.data.sale_id}`)
    expect(detail.body.data[0].attribution.commission).toMatchObject({ rate: 30, terms: 'partner' })
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { commission_rate: null })
    const second = unique('buyer')
    await k.customer(f, second)
    const again = await k.sale(f, { transaction_id: unique('txn'), customer_key: second, amount_cents: 10000 })
    expect(again.body.data.commission.amount_cents).toBe(1000)
  })

  test('POST takes the same terms: a partner created with its own rate is paid by it; a bad one is 400 and creates nothing', async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10 })
    const created = await api.admin('POST', `/programs/${f.programId}/partners`, {
      name: 'Own terms',
      commission_type: 'fixed',
      commission_rate: 7,
      recurring_months: 3,
    })
    expect(created.status).toBe(201)
    const id = created.body.data.partner_id
    const shown = await api.admin('GET', `/programs/${f.programId}/partners?q=Own%20terms`)
    expect(shown.body.data[0]).toMatchObject({ partner_id: id, commission_type: 'fixed', commission_rate: 7, recurring_months: 3 })
    const short = unique('own')
    await api.admin('POST', `/programs/${f.programId}/links`, { partner_id: id, short_link: short })
    const buyer = unique('buyer')
    await k.customer({ ...f, partnerId: id, shortLink: short }, buyer)
    const sale = await k.sale(f, { transaction_id: unique('txn'), customer_key: buyer, amount_cents: 10000 })
    expect(sale.body.data.commission).toMatchObject({ partner_id: id, amount_cents: 700 })
    const before = (await api.admin('GET', `/programs/${f.programId}/partners`)).body.data.length
    expectFailure(
      await api.admin('POST', `/programs/${f.programId}/partners`, { name: 'Too much', commission_rate: 150 }),
      400,
      'commission_rate must be at most 100 for the percent and recurring_percent types',
    )
    expectFailure(
      await api.admin('POST', `/programs/${f.programId}/partners`, { commission_type: 'weekly' }),
      400,
      "commission_type must be one of: percent, fixed, recurring_percent, recurring_fixed, or null for the program's",
    )
    // A percent type without a rate of its own would be paid the program's rate: 500 (fixed) is no percent.
    const fixed = await api.setupProgram({ commission_type: 'fixed', commission_rate: 500 })
    expectFailure(
      await api.admin('POST', `/programs/${fixed.programId}/partners`, { commission_type: 'percent' }),
      400,
      'commission_rate must be at most 100 for the percent and recurring_percent types',
    )
    expectFailure(
      await api.admin('PATCH', `/programs/${fixed.programId}/partners/${fixed.partnerId}`, { commission_type: 'recurring_percent' }),
      400,
      'commission_rate must be at most 100 for the percent and recurring_percent types',
    )
    expect((await api.admin('GET', `/programs/${f.programId}/partners`)).body.data.length).toBe(before)
  })

  test('a recurring commission stops recurring_months after the first sale (program, or the partner over it)', async () => {
    const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10, recurring_months: 1 })
    expect((await api.admin('GET', `/programs/${f.programId}`)).body.data[0].recurring_months).toBe(1)
    const key = unique('subscriber')
    await k.customer(f, key)
    const pay = (amount: number) => k.sale(f, { transaction_id: unique('txn'), customer_key: key, amount_cents: amount })
    expect((await pay(1000)).body.data.commission.amount_cents).toBe(100)
    api.clock.advance(20 * 86_400_000)
    expect((await pay(1000)).body.data.commission.amount_cents).toBe(100)
    api.clock.advance(20 * 86_400_000)
    const late = await pay(1000)
    expect(late.status).toBe(200)
    expect(late.body.data.commission).toBeNull()
    // The partner's own limit wins over the program's.
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { recurring_months: 12 })
    expect((await pay(1000)).body.data.commission.amount_cents).toBe(100)
    const cleared = await api.admin('PATCH', `/programs/${f.programId}`, { recurring_months: null })
    expect(cleared.body.data.recurring_months).toBeNull()
  })
})
