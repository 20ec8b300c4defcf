import { describe, expect, test } from 'bun:test'
import { decideSale, termsFor, type SaleCustomer, type SaleFacts } from '../../src/domain/attribution.ts'

const DAY = 86_400_000
const T0 = Date.parse('2026-01-01T00:00:00Z')
const program = { id: 1, attributionWindowDays: 60, commissionType: 'percent' as const, commissionRate: 10, recurringMonths: null }
const sale = (occurredAt: number) => ({ amountCents: 1000, currency: 'USD', occurredAt })

const customer = (over: Partial<SaleCustomer> = {}): SaleFacts => ({
  kind: 'customer',
  resolvedBy: 'customer_key',
  customer: {
    id: 7,
    status: 'lead',
    partnerId: 3,
    partnerProgramId: 1,
    clickId: 'clk_a',
    linkId: 4,
    clickedAt: T0,
    leadAt: T0 + DAY,
    convertedAt: null,
    testMode: false,
    ...over,
  },
})

describe('decideSale', () => {
  const rows: [string, SaleFacts, number, unknown][] = [
    ['no customer and no click: customer not found', { kind: 'unknown' }, T0, { ok: false, reason: 'customer_not_found' }],
    ['identifiers of another program: no attribution', { kind: 'foreign' }, T0, { ok: false, reason: 'foreign_program' }],
    [
      'a partner outside the program: no partner-program relationship',
      customer({ partnerProgramId: 2 }),
      T0,
      { ok: false, reason: 'no_relationship' },
    ],
    [
      'a missing partner row: no partner-program relationship',
      customer({ partnerProgramId: null }),
      T0,
      { ok: false, reason: 'no_relationship' },
    ],
    [
      'a customer without partner: stored unattributed',
      customer({ partnerId: null, partnerProgramId: null }),
      T0,
      { ok: true, attributed: false },
    ],
    [
      'signup exactly 60 days after the click: attributed',
      customer({ leadAt: T0 + 60 * DAY }),
      T0 + 400 * DAY,
      { ok: true, attributed: true, commissionCents: 100 },
    ],
    [
      'signup 60 days and 1 ms after the click: window expired',
      customer({ leadAt: T0 + 60 * DAY + 1 }),
      T0 + 61 * DAY,
      { ok: false, reason: 'window_expired' },
    ],
    ['no signup: the payment is measured, 60 days is in', customer({ leadAt: null }), T0 + 60 * DAY, { ok: true, attributed: true }],
    [
      'no signup: a payment 61 days after the click is out',
      customer({ leadAt: null }),
      T0 + 61 * DAY,
      { ok: false, reason: 'window_expired' },
    ],
    [
      'after a conversion the window is not re-checked, and percent pays nothing',
      customer({ leadAt: T0 + 90 * DAY, convertedAt: T0 }),
      T0 + 400 * DAY,
      { ok: true, attributed: true, commissionCents: null, firstSale: false },
    ],
    [
      'a click with no customer yet is attributed to its partner',
      { kind: 'click', click: { clickId: 'clk_b', partnerId: 3, linkId: 4, createdAt: T0, testMode: false } },
      T0 + DAY,
      { ok: true, attributed: true, partnerId: 3, linkId: 4, commissionCents: 100, firstSale: true },
    ],
  ]
  for (const [why, facts, at, expected] of rows) {
    test(why, () => expect(decideSale(facts, program, sale(at))).toMatchObject(expected as object))
  }

  test('recurring types pay on every sale after the conversion', () => {
    const recurring = { ...program, commissionType: 'recurring_fixed' as const, commissionRate: 5 }
    expect(decideSale(customer({ convertedAt: T0 }), recurring, sale(T0 + 200 * DAY))).toMatchObject({ ok: true, commissionCents: 500 })
  })

  test('recurring_months: a recurring commission stops after that many months from the first sale', () => {
    const recurring = { ...program, commissionType: 'recurring_percent' as const, commissionRate: 10, recurringMonths: 1 }
    const convertedAt = Date.parse('2026-01-31T10:00:00Z')
    const on = (iso: string) => ({ amountCents: 1000, currency: 'USD', occurredAt: Date.parse(iso) })
    expect(decideSale(customer({ convertedAt }), recurring, on('2026-02-28T20:00:00Z'))).toMatchObject({ commissionCents: 100 })
    expect(decideSale(customer({ convertedAt }), recurring, on('2026-03-01T00:00:00Z'))).toMatchObject({
      ok: true,
      attributed: true,
      commissionCents: null,
      attribution: { commission: { recurring_months: 1, why: 'past recurring_months after the first sale' } },
    })
  })

  test("a partner's own terms replace the program's field by field, and the record says whose they are", () => {
    const terms = termsFor(program, { commissionType: null, commissionRate: 25, recurringMonths: null })
    expect(terms).toMatchObject({ commissionType: 'percent', commissionRate: 25, termsOf: 'partner' })
    expect(termsFor(program, { commissionType: null, commissionRate: null, recurringMonths: null }).termsOf).toBe('program')
    expect(decideSale(customer(), terms, sale(T0 + 2 * DAY))).toMatchObject({
      commissionCents: 250,
      attribution: { commission: { rate: 25, terms: 'partner' } },
    })
  })

  test('the attribution record names the click, partner, link, rule and window', () => {
    const decision = decideSale(customer(), program, sale(T0 + 2 * DAY))
    expect(decision).toMatchObject({
      attribution: {
        rule: 'first_click',
        resolved_by: 'customer_key',
        click_id: 'clk_a',
        partner_id: 3,
        link_id: 4,
        window_days: 60,
        clicked_at: '2026-01-01T00:00:00.000Z',
        window: { checked: true, measured_to: 'signup' },
        commission: { type: 'percent', rate: 10, amount_cents: 100, why: 'first sale' },
      },
    })
  })
})
