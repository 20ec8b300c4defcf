import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN_TOKEN, type Api } from '../../helpers.ts'
import { openPage, signInAccount } from '../pages/sessions.ts'
import { trackingSetup, unique, type Kit } from '../track/kit.ts'

// docs/decisions.md, Selling anywhere: a program's currencies (docs/api.md's three by default, any active
// ISO 4217 code added), amounts in each one's minor unit, shown with its decimals; minimum_payouts.
let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const open = (path: string, cookie: string, form?: Record<string, string>) => openPage(api, path, cookie, form)

const programOf = async (id: number) => (await api.admin('GET', `/programs/${id}`)).body.data[0]

describe('program currencies', () => {
  test('a new program lists USD, EUR and VND; a GBP sale is 422 unsupported_currency until GBP is added', async () => {
    const f = await api.setupProgram()
    expect(await programOf(f.programId)).toMatchObject({ currencies: ['USD', 'EUR', 'VND'], minimum_payouts: {} })
    const customerKey = unique('user')
    await k.customer(f, customerKey)
    const refused = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, currency: 'GBP' })
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ code: 'unsupported_currency', message: 'currency GBP is not supported' })
    const patched = await api.admin('PATCH', `/programs/${f.programId}`, { currencies: ['usd', 'EUR', 'VND', 'GBP', 'JPY', 'KWD'] })
    expect(patched.status).toBe(200)
    expect(patched.body.data.currencies).toEqual(['USD', 'EUR', 'VND', 'GBP', 'JPY', 'KWD'])
    const sold = await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, currency: 'GBP', amount_cents: 2500 })
    expect(sold.status).toBe(200)
    expect(sold.body.data).toMatchObject({ amount_cents: 2500, currency: 'GBP', commission: { amount_cents: 250 } })
  })

  test('POST /programs takes currencies and minimum_payouts; an unknown code or a bad amount is 400 naming the field, nothing made', async () => {
    const account = (await api.admin('POST', '/accounts', { email: `${unique('o')}@shop.test` })).body.data.account_id
    const base = { account_id: account, name: 'Yen shop', domain: 'shop.test', commission_type: 'fixed', commission_rate: 500 }
    const made = await api.admin('POST', '/programs', { ...base, currencies: ['JPY'], minimum_payouts: { jpy: 5000 } })
    expect(made.status).toBe(201)
    expect(await programOf(made.body.data.program_id)).toMatchObject({ currencies: ['JPY'], minimum_payouts: { JPY: 5000 } })
    const before = (await api.admin('GET', '/programs')).body.data.length
    const unknown = await api.admin('POST', '/programs', { ...base, currencies: ['USD', 'ABC'] })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toStartWith('currencies must be a list of 1 to 50 active ISO 4217 currency codes')
    const empty = await api.admin('POST', '/programs', { ...base, currencies: [] })
    expect(empty.status).toBe(400)
    const badMinimum = await api.admin('POST', '/programs', { ...base, minimum_payouts: { JPY: -5 } })
    expect(badMinimum.status).toBe(400)
    expect(badMinimum.body.error.message).toStartWith('minimum_payouts must map ISO 4217 currency codes')
    expect((await api.admin('GET', '/programs')).body.data.length).toBe(before)
  })

  test('a fixed commission is rate × 10^exponent: JPY 500 is 500, KWD 2 is 2000', async () => {
    const f = await api.setupProgram({ commission_type: 'fixed', commission_rate: 500, currencies: ['JPY'] })
    const jpyKey = unique('user')
    await k.customer(f, jpyKey)
    const jpy = await k.sale(f, { transaction_id: unique('txn'), customer_key: jpyKey, currency: 'JPY', amount_cents: 9800 })
    expect(jpy.body.data.commission.amount_cents).toBe(500)
    const g = await api.setupProgram({ commission_type: 'fixed', commission_rate: 2, currencies: ['KWD'] })
    const kwdKey = unique('user')
    await k.customer(g, kwdKey)
    const kwd = await k.sale(g, { transaction_id: unique('txn'), customer_key: kwdKey, currency: 'KWD', amount_cents: 12_345 })
    expect(kwd.body.data.commission.amount_cents).toBe(2000)
  })

  test('CSVs and pages show major units with each currency’s decimals: JPY 9800, KWD 12.345, USD 49.00', async () => {
    const f = await api.setupProgram({ currencies: ['USD', 'JPY', 'KWD'] })
    const key = unique('user')
    await k.customer(f, key)
    for (const [currency, amount] of [
      ['JPY', 9800],
      ['KWD', 12_345],
      ['USD', 4900],
    ] as const)
      expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: key, currency, amount_cents: amount })).status).toBe(200)
    const csv = await fetch(`${api.url}/api/v1/admin/programs/${f.programId}/sales.csv`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    }).then((r) => r.text())
    expect(csv).toContain(',9800,JPY')
    expect(csv).toContain(',12.345,KWD')
    expect(csv).toContain(',49.00,USD')
    const cookie = await signInAccount(api, f.accountId)
    const page = await open(`/dashboard/programs/${f.programId}/sales`, cookie)
    expect(page.text).toContain('JPY 9,800<')
    expect(page.text).toContain('KWD 12.345<')
    expect(page.text).toContain('USD 49.00<')
  })

  test('the Settings form saves currencies and per-currency minimums; a bad code is refused with its notice', async () => {
    const f = await api.setupProgram()
    const cookie = await signInAccount(api, f.accountId)
    const settings = await open(`/dashboard/programs/${f.programId}/settings`, cookie)
    const csrf = settings.text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    expect(settings.text).toContain('name="currencies" value="USD EUR VND"')
    const form = {
      _csrf: csrf,
      name: 'Shop',
      domain: 'shop.test',
      commission_type: 'percent',
      commission_rate: '10',
      attribution_window_days: '60',
      holding_period_days: '30',
      minimum_payout: '50',
      lead_auth: 'server_required',
      partner_signup: 'off',
    }
    const saved = await open(`/dashboard/programs/${f.programId}/settings`, cookie, {
      ...form,
      currencies: 'usd, GBP JPY',
      minimum_payouts: 'JPY 5000, gbp 20',
    })
    expect(saved.status).toBe(303)
    expect(await programOf(f.programId)).toMatchObject({ currencies: ['USD', 'GBP', 'JPY'], minimum_payouts: { JPY: 5000, GBP: 20 } })
    const terms = await open(`/dashboard/programs/${f.programId}/settings`, cookie)
    expect(terms.text).toContain('value="JPY 5000, GBP 20"')
    const refused = await open(`/dashboard/programs/${f.programId}/settings`, cookie, { ...form, currencies: 'USD NOPE' })
    // Refused: the page again, its notice and what was typed (nothing saved).
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('Not saved: currencies are 1 to 50 ISO 4217 codes such as USD, GBP or JPY.')
    expect(refused.text).toContain('name="currencies" value="USD NOPE"')
    expect((await programOf(f.programId)).currencies).toEqual(['USD', 'GBP', 'JPY'])
  })

  test('a payout run holds each currency to its own minimum: JPY 5000 overrides minimum_payout 50', async () => {
    const f = await api.setupProgram({
      commission_type: 'fixed',
      commission_rate: 100,
      currencies: ['USD', 'JPY'],
      holding_period_days: 0,
      minimum_payout: 50,
      minimum_payouts: { JPY: 5000 },
    })
    const key = unique('user')
    await k.customer(f, key)
    // 100 JPY and USD 100.00 of commission (recurring types pay every sale; fixed pays the first, so two customers).
    await k.sale(f, { transaction_id: unique('txn'), customer_key: key, currency: 'JPY', amount_cents: 1000 })
    const other = unique('user')
    await k.customer(f, other)
    await k.sale(f, { transaction_id: unique('txn'), customer_key: other, currency: 'USD', amount_cents: 1000 })
    api.clock.advance(1000)
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`, {})
    expect(run.status).toBeLessThan(300)
    const payouts = (await api.admin('GET', `/programs/${f.programId}/payouts`)).body.data as { currency: string }[]
    // JPY 100 is under its 5000; USD 100.00 is over 50.
    expect(payouts.map((p) => p.currency)).toEqual(['USD'])
    const page = await open(`/dashboard/programs/${f.programId}/payouts`, await signInAccount(api, f.accountId))
    expect(page.text).toContain('at least 50 (major units), JPY 5000.')
  })
})
