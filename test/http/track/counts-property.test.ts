// Property (issue 14): the counts of readiness and GET /api/v1/cli/status, whose clicks and sales
// come from the daily_counts rollups kept in each write's transaction (clicks and sales have no
// index by program), stay exactly equal to the rows counted in the tables, over random sequences
// of clicks, leads, sales and refunds in live and test mode, over days, from two partners, with
// refused writes (a repeated transaction_id) sharing a batch with accepted ones.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { seeded } from '../../property.ts'
import { days, type Api, type Fixture } from '../../helpers.ts'
import { trackingSetup, type Kit, unique } from './kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('clicks' as const),
      partner: fc.nat({ max: 1 }),
      n: fc.integer({ min: 1, max: 4 }),
      test: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('lead' as const), partner: fc.nat({ max: 1 }), test: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('sales' as const),
      customer: fc.nat(),
      n: fc.integer({ min: 1, max: 3 }),
      repeat: fc.boolean(),
      fromClick: fc.boolean(),
      test: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), sale: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 60 }) }) },
)

test('clicks and sales counted from the rollups equal the rows, live and test apart', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
      const a = await api.setupProgram()
      const b = await k.partnerLink(a, unique('b'))
      const partners: Fixture[] = [a, b]
      const customers: { key: string; test: boolean }[] = []
      const sold: string[] = []
      const extra = (test: boolean) => (test ? { additional_data: { test_mode: true } } : {})
      for (const o of ops) {
        if (o.kind === 'clicks') {
          // Sent together: they share the writer's batches.
          await Promise.all(Array.from({ length: o.n }, () => k.clickId(partners[o.partner], extra(o.test))))
        } else if (o.kind === 'lead') {
          const key = unique('c')
          const clickId = await k.clickId(partners[o.partner], extra(o.test))
          expect((await k.lead(a, { click_id: clickId, customer_key: key, ...extra(o.test) })).status).toBe(200)
          customers.push({ key, test: o.test })
        } else if (o.kind === 'sales') {
          const sales = await Promise.all(
            Array.from({ length: o.n }, async (_, i) => {
              // A repeated transaction_id is refused (409) in the same batch as the others.
              const id = o.repeat && sold.length ? sold[(o.customer + i) % sold.length] : unique('t')
              const customer = customers.length && !o.fromClick ? customers[(o.customer + i) % customers.length] : null
              const body = customer
                ? { transaction_id: id, customer_key: customer.key, ...extra(customer.test) }
                : { transaction_id: id, click_id: await k.clickId(partners[i % 2], extra(o.test)), ...extra(o.test) }
              const reply = await k.sale(a, body)
              expect([200, 409]).toContain(reply.status)
              return reply.status === 200 ? id : null
            }),
          )
          for (const id of sales) if (id) sold.push(id)
        } else if (o.kind === 'refund') {
          if (sold.length) await k.refund(a, { transaction_id: sold[o.sale % sold.length] })
        } else {
          api.clock.advance(days(o.hours / 24))
        }
      }
      const rows = (table: string, test: number) =>
        k.count(`SELECT count(*) AS n FROM ${table} WHERE program_id = ? AND test_mode = ?`, a.programId, test)
      const status = (await api.call('GET', '/api/v1/cli/status', { token: a.apiKey })).body.data
      const readiness = (await api.call('GET', '/api/v1/programs/me/readiness', { token: a.apiKey })).body.data.counts
      for (const [mode, test] of [
        ['live', 0],
        ['test', 1],
      ] as const) {
        expect({ clicks: status[mode].clicks, sales: status[mode].sales }).toEqual({
          clicks: rows('clicks', test),
          sales: rows('sales', test),
        })
        expect({ clicks: readiness[mode].clicks, sales: readiness[mode].sales }).toEqual({
          clicks: rows('clicks', test),
          sales: rows('sales', test),
        })
      }
    }),
    seeded({ numRuns: 12 }),
  )
}, 60_000)
