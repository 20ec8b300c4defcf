import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, type Fixture, withOwnServer } from '../../helpers.ts'
import { kit, trackingSetup, type Kit, unique } from './kit.ts'

let api: Api, k: Kit, f: Fixture
beforeAll(async () => ({ api, k, f } = await trackingSetup({})))
afterAll(() => api.stop())

const customers = () => k.count('SELECT count(*) AS n FROM customers')
const bad = (message: string) => ({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } })

describe('POST /api/v1/track/lead in server mode (program key)', () => {
  test('a lead with a click answers { data: { customer_id, status: "lead" }, error: null }', async () => {
    const clickId = await k.clickId(f)
    const reply = await k.lead(f, { click_id: clickId, customer_key: unique('cust'), email: 'a@buyers.test' })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ data: { customer_id: expect.any(Number), status: 'lead' }, error: null })
  })

  test('a lead for a customer already a lead answers 400 "Customer status cannot be updated to lead. Current status: lead"', async () => {
    const key = unique('cust')
    const { clickId } = await k.customer(f, key)
    for (const body of [{ customer_key: key }, { click_id: clickId }, { click_id: clickId, customer_key: key }]) {
      const reply = await k.lead(f, body)
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(bad('Customer status cannot be updated to lead. Current status: lead'))
    }
  })

  test('a lead for a converted customer answers the status 400 with "converted"', async () => {
    const key = unique('cust')
    await k.customer(f, key)
    expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key })).status).toBe(200)
    const reply = await k.lead(f, { customer_key: key })
    expect(reply.body.error.message).toBe('Customer status cannot be updated to lead. Current status: converted')
  })

  test('neither click_id nor customer_key answers 400 "click_id or customer_key is required"', async () => {
    // A body that is JSON but no object (an array, null, a number, a string) sends neither either.
    for (const body of [{}, { email: 'a@b.test' }, { click_id: '', customer_key: '  ' }, '[]', 'null', '5', '"text"']) {
      for (const mode of [f, null]) {
        const reply = await k.lead(mode, body)
        expect({ body, server: mode !== null, status: reply.status, reply: reply.body }).toEqual({
          body,
          server: mode !== null,
          status: 400,
          reply: bad('click_id or customer_key is required'),
        })
      }
    }
  })

  test('a lead resolving no click and no known customer answers 400 and records nothing (docs/decisions.md over rule 3)', async () => {
    const before = customers()
    for (const body of [
      { customer_key: unique('nobody') },
      { click_id: 'clk_unknown' },
      { click_id: 'clk_unknown', customer_key: unique('nobody') },
    ]) {
      const reply = await k.lead(f, body)
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(bad('Customer not found. Provide a valid click_id or customer_key.'))
    }
    expect(customers()).toBe(before)
  })

  test('a click of another program answers 400 "Customer does not belong to this program"', async () => {
    const other = await api.setupProgram()
    const clickId = await k.clickId(other)
    const reply = await k.lead(f, { click_id: clickId, customer_key: unique('cust') })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(bad('Customer does not belong to this program'))
  })

  test('a customer_key known only in another program answers 400 "Customer does not belong to this program"', async () => {
    const other = await api.setupProgram()
    const key = unique('cust')
    await k.customer(other, key)
    expect((await k.lead(f, { customer_key: key })).body.error.message).toBe('Customer does not belong to this program')
  })

  test('an unknown token answers 401 "Invalid API token"', async () => {
    const reply = await api.call('POST', '/api/v1/track/lead', { body: { click_id: 'x' }, token: 'svc_live_not_a_key' })
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Invalid API token', details: {} } })
  })

  test('an integer customer_key is the same customer as its string', async () => {
    const clickId = await k.clickId(f)
    const number = Math.floor(Math.random() * 1e9)
    await k.lead(f, { click_id: clickId, customer_key: number })
    expect((await k.lead(f, { customer_key: String(number) })).body.error.message).toContain('Current status: lead')
  })
})

describe('browser mode (no key, or an empty Bearer token)', () => {
  test('under lead_auth server_required the lead is provisional: provisional true, status provisional', async () => {
    const clickId = await k.clickId(f)
    for (const headers of [undefined, { authorization: 'Bearer ' }, { authorization: 'Bearer    ' }]) {
      const reply = await k.lead(null, { click_id: clickId, customer_key: unique('cust') }, headers)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ data: { customer_id: expect.any(Number), status: 'provisional', provisional: true }, error: null })
    }
  })

  test('a provisional lead saves no customer_key and counts nothing', async () => {
    const g = await api.setupProgram()
    const clickId = await k.clickId(g)
    const key = unique('cust')
    await k.lead(null, { click_id: clickId, customer_key: key, email: 'p@buyers.test' })
    expect(k.count('SELECT count(*) AS n FROM customers WHERE customer_key = ?', key)).toBe(0)
    const readiness = await api.call('GET', '/api/v1/programs/me/readiness', { token: g.apiKey })
    expect(readiness.body.data.counts.live).toMatchObject({ leads: 0, provisional_leads: 1 })
    // The key is unknown to the program, so a sale by customer_key alone does not find it.
    expect((await k.sale(g, { transaction_id: unique('txn'), customer_key: key })).body.error.message).toBe(
      'Customer not found. Provide customer_key or click_id.',
    )
  })

  test('a server-mode lead settles the provisional lead: same customer, status lead, counted', async () => {
    const clickId = await k.clickId(f)
    const provisional = await k.lead(null, { click_id: clickId, customer_key: 'ignored' })
    const key = unique('cust')
    const settled = await k.lead(f, { click_id: clickId, customer_key: key })
    expect(settled.body).toEqual({ data: { customer_id: provisional.body.data.customer_id, status: 'lead' }, error: null })
    expect(k.count("SELECT count(*) AS n FROM customers WHERE customer_key = ? AND status = 'lead' AND lead_at IS NOT NULL", key)).toBe(1)
  })

  test('a sale does not settle a provisional lead; the later server lead does', async () => {
    const clickId = await k.clickId(f)
    const provisional = await k.lead(null, { click_id: clickId })
    const sale = await k.sale(f, { transaction_id: unique('txn'), click_id: clickId })
    expect(sale.status).toBe(200)
    expect(k.count("SELECT count(*) AS n FROM customers WHERE id = ? AND status = 'provisional'", provisional.body.data.customer_id)).toBe(
      1,
    )
    expect((await k.lead(null, { click_id: clickId })).body.data.status).toBe('provisional')
    const settled = await k.lead(f, { click_id: clickId, customer_key: unique('cust') })
    expect(settled.body.data).toEqual({ customer_id: provisional.body.data.customer_id, status: 'converted' })
  })

  test('a repeated browser lead leaves the provisional lead unchanged', async () => {
    const clickId = await k.clickId(f)
    const first = await k.lead(null, { click_id: clickId })
    const second = await k.lead(null, { click_id: clickId })
    expect(second.body).toEqual(first.body)
  })

  test('under lead_auth browser_allowed the lead is recorded at once, without the provisional flag', async () => {
    const g = await api.setupProgram({ lead_auth: 'browser_allowed' })
    const clickId = await k.clickId(g)
    const key = unique('cust')
    const reply = await k.lead(null, { click_id: clickId, customer_key: key })
    expect(reply.body).toEqual({ data: { customer_id: expect.any(Number), status: 'lead' }, error: null })
    expect((await k.lead(g, { customer_key: key })).body.error.message).toBe(
      'Customer status cannot be updated to lead. Current status: lead',
    )
  })

  test('a browser lead with a customer_key only cannot name its program: 400 customer not found', async () => {
    const reply = await k.lead(null, { customer_key: unique('cust') })
    expect(reply.body).toEqual(bad('Customer not found. Provide a valid click_id or customer_key.'))
  })

  test('a browser lead never tells whether a customer_key exists in another program (docs/decisions.md, Hostile input)', async () => {
    const open = await api.setupProgram({ lead_auth: 'browser_allowed' })
    const elsewhere = await api.setupProgram()
    const known = unique('cust')
    await k.customer(elsewhere, known)
    // additional_data.program_id is read in test mode only: outside it, it names no program.
    for (const extra of [{ program_id: open.programId }, { program_id: open.programId, test_mode: false }]) {
      for (const key of [known, unique('cust')]) {
        expect((await k.lead(null, { customer_key: key, additional_data: extra })).body).toEqual(
          bad('Customer not found. Provide a valid click_id or customer_key.'),
        )
      }
    }
    // In test mode it names the program, and still the answer is the same for both keys.
    const answers = []
    for (const key of [known, unique('cust')]) {
      answers.push((await k.lead(null, { customer_key: key, additional_data: { test_mode: true, program_id: open.programId } })).body)
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]).toEqual(bad('Customer not found. Provide a valid click_id or customer_key.'))
  })

  test('a browser lead from an origin the program does not allow answers 403 and records nothing', async () => {
    const clickId = await k.clickId(f)
    const before = customers()
    const reply = await k.lead(null, { click_id: clickId }, { origin: 'http://localhost:3000' })
    expect(reply.status).toBe(403)
    expect(reply.body.error.message).toBe('Origin not allowed for this program')
    expect(customers()).toBe(before)
  })
})

describe('test mode', () => {
  test('a Bearer key with another additional_data.program_id answers 403 and records nothing', async () => {
    const clickId = await k.clickId(f)
    const before = customers()
    const reply = await k.lead(f, {
      click_id: clickId,
      customer_key: unique('c'),
      additional_data: { test_mode: true, program_id: f.programId + 500 },
    })
    expect(reply.status).toBe(403)
    expect(reply.body.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'program_id does not match the API key', details: {} })
    expect(customers()).toBe(before)
  })

  test('a browser-mode test lead with any program_id is not checked, and is marked test', async () => {
    const clickId = await k.clickId(f)
    const reply = await k.lead(null, { click_id: clickId, additional_data: { test_mode: true, program_id: 424242 } })
    expect(reply.status).toBe(200)
    expect(k.count('SELECT test_mode AS n FROM customers WHERE id = ?', reply.body.data.customer_id)).toBe(1)
  })
})

test('a database failure answers 500 "Lead tracking failed"', async () => {
  await withOwnServer(async (broken) => {
    const g = await broken.setupProgram()
    const bk = kit(broken)
    const clickId = await bk.clickId(g)
    broken.server.deps.database.client.exec(
      "CREATE TRIGGER fail_lead BEFORE INSERT ON customers BEGIN SELECT RAISE(ABORT, 'disk on fire'); END",
    )
    const reply = await bk.lead(g, { click_id: clickId, customer_key: 'c1' })
    expect(reply.status).toBe(500)
    expect(reply.body).toEqual({
      data: null,
      error: { status: 500, name: 'InternalServerError', message: 'Lead tracking failed', details: {} },
    })
    expect(reply.headers.get('x-request-id')).toBeTruthy()
  })
})
