// Property (issue 13, docs/decisions.md "Payouts"; issue 26, "Fraud signals and review"): random
// sequences of sales (some flagged, so held for review), refunds, chargebacks, approvals,
// rejections, clock moves, payout runs (some racing), cancels and payments keep, for every partner
// and currency, to the cent:
//
//   paid + in payouts + due + pending + held + reversed = commissions booked
//
// where, per partner and currency,
// - booked:     the sum of the commissions of the live sales, computed here from the sale amounts;
// - reversed:   the sum of the commissions of the sales refunded or charged back, computed here
//               (what reversals took back, whether before or after a payout);
// - paid:       the sum of amount_cents of the payouts with status paid (GET /programs/:id/payouts);
// - in payouts: the sum of amount_cents of the payouts with status pending;
// - due:        the sum of amount_cents of the ledger entries with status due (GET …/commissions),
//               reversals counted negative;
// - pending:    the sum of amount_cents of the ledger entries with status pending;
// - held:       the sum of amount_cents of the ledger entries with status held (the flagged sales
//               not yet reviewed nor refunded, computed here too).
// A rejection reverses like a refund (a later refund of its sale takes nothing more back).
// A reversal of a paid commission appears both in `reversed` and, negative, in due, in
// payouts or paid: that is how it nets against the partner's next payout.
// It also checks that every payout is positive and at least minimum_payout, that its amount is
// the sum of its entries, that no ledger entry is in two pending or paid payouts, and that a run
// repeated at once creates nothing, that the owner's partners page (the server's grouped
// balances) shows the same figures, and that no commission held at the
// time of a run, nor one ever rejected, is in any payout.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { seeded } from '../../property.ts'
import { days, type Api, type Fixture } from '../../helpers.ts'
import { signInAccount } from '../pages/sessions.ts'
import { trackingSetup, type Kit, unique } from '../track/kit.ts'

let api: Api, k: Kit
beforeAll(async () => ({ api, k } = await trackingSetup()))
afterAll(() => api.stop())

const CURRENCIES = ['USD', 'EUR', 'VND'] as const
const minorUnit: Record<string, number> = { USD: 100, EUR: 100, VND: 1 }
const pick = (n: number) => fc.nat({ max: n - 1 })
const op = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('sale' as const),
      partner: pick(2),
      currency: fc.constantFrom(...CURRENCIES),
      amount: fc.integer({ min: 100, max: 200_000 }),
      flagged: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('approve' as const), sale: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reject' as const), sale: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('refund' as const), sale: fc.nat(), reason: fc.constantFrom('refund', 'chargeback') }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: 0, max: 20 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('run' as const),
      race: fc.boolean(),
      untilDaysAgo: fc.option(fc.integer({ min: 0, max: 15 }), { freq: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), payout: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pay' as const), payout: fc.nat() }) },
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never
const terms = fc.record({ holding: fc.constantFrom(0, 7, 30), minimum: fc.constantFrom(0, 10, 25.5) })

interface ModelSale {
  txn: string
  partner: number
  currency: string
  commission: number
  refunded: boolean
  /** Held for review: flagged, neither reviewed nor refunded since. */
  held: boolean
  /** The ledger entry's id, read once the sale is recorded. */
  id: number
}

/** recurring_percent 10: round(amount × 10 / 100) half up, on every sale. */
const commissionOf = (amount: number) => Math.floor((amount * 10 + 50) / 100)

async function all(path: string) {
  const rows: any[] = []
  let cursor: string | null = null
  do {
    const reply = await api.admin('GET', `${path}?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
    rows.push(...reply.body.data)
    cursor = reply.body.next_cursor
  } while (cursor)
  return rows
}

type PageTotals = { pending: number; due: number; in_payout: number; paid: number; held: number }
const PAGE_ZERO: PageTotals = { pending: 0, due: 0, in_payout: 0, paid: 0, held: 0 }

/** What the owner's partners page shows per "partner currency", in minor units (a currency without a balance has no line). */
async function partnersPage(f: Fixture): Promise<Map<string, PageTotals>> {
  const cookie = await signInAccount(api, f.accountId)
  const response = await fetch(`${api.url}/dashboard/programs/${f.programId}/partners`, { headers: { cookie }, redirect: 'manual' })
  expect(response.status).toBe(200)
  const out = new Map<string, PageTotals>()
  for (const row of (await response.text()).split('<tr data-partner="').slice(1)) {
    const partnerId = row.slice(0, row.indexOf('"'))
    for (const [, currency, line] of row.matchAll(/data-status-currency="([A-Z]{3})">(.*?)<\/span><\/span>/g)) {
      const totals = { ...PAGE_ZERO }
      for (const [, amount, status] of line!.matchAll(/[A-Z]{3} (-?[\d,]+(?:\.\d+)?) (pending|due|in payout|paid|held)/g)) {
        totals[status!.replace(' ', '_') as keyof PageTotals] = Math.round(Number(amount!.replaceAll(',', '')) * minorUnit[currency!]!)
      }
      out.set(`${partnerId} ${currency}`, totals)
    }
  }
  return out
}

async function checkBalance(f: Fixture, partners: number[], sales: ModelSale[], onPage = false) {
  const payouts = await all(`/programs/${f.programId}/payouts`)
  const entries = await all(`/programs/${f.programId}/commissions`)
  // The grouped figures the owner's partners page shows (the server's own ledger groups) must agree
  // at the end of each scenario (test/http/pages/balances.test.ts follows them step by step).
  const shown = onPage ? await partnersPage(f) : null
  for (const [index, partnerId] of partners.entries()) {
    for (const currency of CURRENCIES) {
      const mine = sales.filter((s) => s.partner === index && s.currency === currency)
      const booked = mine.reduce((sum, s) => sum + s.commission, 0)
      const reversed = mine.filter((s) => s.refunded).reduce((sum, s) => sum + s.commission, 0)
      const heldSum = mine.filter((s) => s.held).reduce((sum, s) => sum + s.commission, 0)
      const payoutSum = (status: string) =>
        payouts
          .filter((p) => p.partner_id === partnerId && p.currency === currency && p.status === status)
          .reduce((sum, p) => sum + p.amount_cents, 0)
      const entrySum = (status: string) =>
        entries
          .filter((e) => e.partner_id === partnerId && e.currency === currency && e.status === status)
          .reduce((sum, e) => sum + e.amount_cents, 0)
      const terms = {
        paid: payoutSum('paid'),
        inPayouts: payoutSum('pending'),
        due: entrySum('due'),
        pending: entrySum('pending'),
        held: entrySum('held'),
        reversed,
      }
      expect(terms.held).toBe(heldSum)
      expect({
        partnerId,
        currency,
        sum: terms.paid + terms.inPayouts + terms.due + terms.pending + terms.held + terms.reversed,
        terms,
      }).toEqual({
        partnerId,
        currency,
        sum: booked,
        terms,
      })
      if (shown)
        expect({ partnerId, currency, ...(shown.get(`${partnerId} ${currency}`) ?? PAGE_ZERO) }).toEqual({
          partnerId,
          currency,
          pending: terms.pending,
          due: terms.due,
          in_payout: terms.inPayouts,
          paid: terms.paid,
          held: terms.held,
        })
      // Entries reversed before any payout cancel out: they are never paid.
      expect(
        entries
          .filter((e) => e.partner_id === partnerId && e.currency === currency && e.status === 'reversed')
          .reduce((sum, e) => sum + e.amount_cents, 0),
      ).toBe(0)
    }
  }
  return payouts
}

async function scenario(setup: { holding: number; minimum: number }, ops: Op[]) {
  const f = await api.setupProgram({
    commission_type: 'recurring_percent',
    commission_rate: 10,
    holding_period_days: setup.holding,
    minimum_payout: setup.minimum,
  })
  const second = await k.partnerLink(f, unique('p2'))
  const fixtures = [f, second]
  const customers = [unique('c0'), unique('c1')]
  for (const [i, fixture] of fixtures.entries()) await k.customer(fixture, customers[i])
  // Each partner's second customer came from a paid ad (gclid): its commissions are held (paid_ads).
  const flaggedCustomers = [unique('f0'), unique('f1')]
  for (const [i, fixture] of fixtures.entries()) {
    const click = await k.click(fixture, { affiliate_url: `https://shop.test/?aff=${fixture.shortLink}&gclid=ad${i}` })
    expect((await k.lead(fixture, { click_id: click.body.click_id, customer_key: flaggedCustomers[i] })).status).toBe(200)
  }
  const partners = fixtures.map((x) => x.partnerId)
  /** Commissions rejected in review: never in any payout, canceled or not. */
  const rejected = new Set<number>()
  const sales: ModelSale[] = []
  const payoutIds: number[] = []
  const runPath = `/programs/${f.programId}/payouts`

  for (const o of ops) {
    if (o.kind === 'sale') {
      const txn = unique('t')
      const reply = await k.sale(f, {
        transaction_id: txn,
        customer_key: (o.flagged ? flaggedCustomers : customers)[o.partner],
        amount_cents: o.amount,
        currency: o.currency,
      })
      expect(reply.status).toBe(200)
      const entry = (await api.admin('GET', `/programs/${f.programId}/commissions?limit=1`)).body.data[0]
      expect(entry.flags).toEqual(o.flagged ? ['paid_ads'] : [])
      const commission = commissionOf(o.amount)
      sales.push({ txn, partner: o.partner, currency: o.currency, commission, refunded: false, held: o.flagged, id: entry.commission_id })
    } else if (o.kind === 'refund') {
      if (!sales.length) continue
      const sale = sales[o.sale % sales.length]
      expect((await k.refund(f, { transaction_id: sale.txn, reason: o.reason })).status).toBe(200)
      sale.refunded = true
      sale.held = false
    } else if (o.kind === 'approve' || o.kind === 'reject') {
      if (!sales.length) continue
      const sale = sales[o.sale % sales.length]
      const reply = await api.admin('POST', `/commissions/${sale.id}/${o.kind}`, o.kind === 'reject' ? { reason: 'test' } : undefined)
      // Only a held commission is reviewed; any other answers 409 and changes nothing.
      expect(reply.status).toBe(sale.held ? 200 : 409)
      if (sale.held && o.kind === 'reject') {
        expect(reply.body.data.status).toBe('reversed')
        sale.refunded = true
        rejected.add(sale.id)
      }
      if (sale.held && o.kind === 'approve') expect(['pending', 'due']).toContain(reply.body.data.status)
      sale.held = false
    } else if (o.kind === 'wait') {
      api.clock.advance(days(o.days))
    } else if (o.kind === 'run') {
      const body = o.untilDaysAgo === null ? undefined : { until: new Date(api.clock.now() - days(o.untilDaysAgo)).toISOString() }
      const replies = await Promise.all(
        o.race ? [api.admin('POST', runPath, body), api.admin('POST', runPath, body)] : [api.admin('POST', runPath, body)],
      )
      const created = replies.flatMap((r) => (expect(r.status).toBe(201), r.body.data))
      const heldNow = new Set(sales.filter((s) => s.held).map((s) => s.id))
      for (const p of created) {
        expect(p.amount_cents).toBeGreaterThan(0)
        expect(p.amount_cents).toBeGreaterThanOrEqual(Math.ceil(setup.minimum * minorUnit[p.currency]))
        payoutIds.push(p.payout_id)
        // No commission held at the time of the run is in it.
        for (const e of (await api.admin('GET', `/payouts/${p.payout_id}`)).body.data[0].entries)
          expect(heldNow.has(e.commission_id)).toBe(false)
      }
      // Nothing new is due: the same run again creates nothing.
      expect((await api.admin('POST', runPath, body)).body.data).toEqual([])
    } else {
      if (!payoutIds.length) continue
      const id = payoutIds[o.payout % payoutIds.length]
      const reply = await api.admin(
        'POST',
        `/payouts/${id}/${o.kind === 'pay' ? 'paid' : 'cancel'}`,
        o.kind === 'pay' ? { reference: `ref-${id}` } : undefined,
      )
      expect([200, 409]).toContain(reply.status)
    }
    await checkBalance(f, partners, sales)
  }

  // At the end: each payout is the sum of its entries, and no entry is in two pending or paid payouts.
  const payouts = await checkBalance(f, partners, sales, true)
  const held = new Set<number>()
  for (const p of payouts) {
    const detail = (await api.admin('GET', `/payouts/${p.payout_id}`)).body.data[0]
    expect(detail.entries.reduce((sum: number, e: any) => sum + e.amount_cents, 0)).toBe(p.amount_cents)
    expect(detail.entries).toHaveLength(p.commissions)
    for (const e of detail.entries) expect(rejected.has(e.commission_id)).toBe(false)
    if (p.status === 'canceled') continue
    for (const e of detail.entries) {
      expect(held.has(e.commission_id)).toBe(false)
      held.add(e.commission_id)
    }
  }
}

test('paid + in payouts + due + pending + held + reversed = commissions booked, for every partner and currency, to the cent; no held commission is paid', async () => {
  await fc.assert(fc.asyncProperty(terms, fc.array(op, { minLength: 5, maxLength: 35 }), scenario), seeded({ numRuns: 50 }))
}, 30_000)
