// Property (docs/decisions.md, Groups: "terms resolve partner → group → program"): for any mix of a
// program's terms, a group's (each term set or not, or no group at all) and a partner's own (each
// set or not), the commission of a customer's first sale is, to the cent, what the rule says: each
// of commission_type and commission_rate is the partner's when set, else the group's, else the
// program's; percent types pay round-half-up(amount × rate / 100), fixed types rate major units.
// The expectation is computed here, in integer hundredths, not with the service's code.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import type { Api } from '../../helpers.ts'
import { seeded } from '../../property.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const TYPES = ['percent', 'fixed', 'recurring_percent', 'recurring_fixed'] as const
type Type = (typeof TYPES)[number]
/** A rate in hundredths (1 = 0.01), at most 100: it fits every type. */
const hundredths = fc.integer({ min: 1, max: 10_000 })
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null })
const terms = fc.record({ type: maybe(fc.constantFrom(...TYPES)), rate: maybe(hundredths) })

test('any mix of program, group and partner terms pays what partner → group → program says', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        program: fc.record({ type: fc.constantFrom(...TYPES), rate: hundredths }),
        group: fc.option(terms, { nil: null }),
        partner: terms,
        amountCents: fc.integer({ min: 1, max: 10_000_000 }),
      }),
      async ({ program, group, partner, amountCents }) => {
        const f = await api.setupProgram({ commission_type: program.type, commission_rate: program.rate / 100 })
        if (group) {
          const made = await api.admin('POST', `/programs/${f.programId}/groups`, {
            name: 'G',
            commission_type: group.type,
            commission_rate: group.rate === null ? null : group.rate / 100,
          })
          expect(made.status).toBe(201)
          const moved = await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: made.body.data.group_id })
          expect(moved.status).toBe(200)
        }
        const own = await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, {
          commission_type: partner.type,
          commission_rate: partner.rate === null ? null : partner.rate / 100,
        })
        expect(own.status).toBe(200)
        const type: Type = partner.type ?? group?.type ?? program.type
        const rate = partner.rate ?? group?.rate ?? program.rate
        const expected = type.endsWith('percent') ? Math.floor((amountCents * rate * 2 + 10_000) / 20_000) : rate
        const buyer = unique('buyer')
        await k.customer(f, buyer)
        const sale = await k.sale(f, { transaction_id: unique('txn'), customer_key: buyer, amount_cents: amountCents })
        expect(sale.status).toBe(200)
        expect(sale.body.data.commission.amount_cents).toBe(expected)
        const listed = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
        expect(listed.map((c: { amount_cents: number }) => c.amount_cents)).toEqual([expected])
      },
    ),
    seeded({ numRuns: 60 }),
  )
}, 120_000)
