// Property (docs/decisions.md, Teams and the audit log): random sequences of sales (some held for
// review), approvals and rejections, payout runs, payments and cancellations, each by one of the
// owner and an admin in the dashboard, the operator API, or (reviews) the CLI's manage key, keep
// the audit log and the ledger in agreement on who moved which money:
//
//   the money entries of the log (commission.*, payout.*) are exactly the changes the ledger shows,
//   step by step — each commission reviewed, each payout made, paid or cancelled — with the actor
//   who made that step, the object's id, and its amount, currency and partner; nothing more.
//
// The changes are read from the ledger itself (the commissions and payouts before and after each
// step), never from what the step was meant to do, so a refused or repeated step must leave no entry.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { ADMIN_TOKEN, type Api, type Fixture } from '../../helpers.ts'
import { seeded } from '../../property.ts'
import { signInAccount } from '../pages/sessions.ts'
import { type Kit, trackingSetup, unique } from '../track/kit.ts'
import { addMember, open, signInInvited } from './kit.ts'

let api: Api, k: Kit
beforeAll(async () => {
  ;({ api, k } = await trackingSetup(undefined, { TRUST_PROXY: 'true' }))
})
afterAll(() => api.stop())

type Who = 'owner' | 'admin' | 'operator' | 'cli'
const who = fc.constantFrom<Who>('owner', 'admin', 'operator')
const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('sale' as const),
      amount: fc.integer({ min: 100, max: 90_000 }),
      held: fc.boolean(),
      eur: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('approve' as const, 'reject' as const),
      pick: fc.nat(),
      by: fc.constantFrom<Who>('owner', 'admin', 'operator', 'cli'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('run' as const), by: who }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('paid' as const, 'cancel' as const), pick: fc.nat(), by: who }) },
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

interface Move {
  action: string
  object_id: string
  actor: string
  amount_cents: number
  currency: string
  partner_id: number
}

interface Team {
  f: Fixture
  cookies: Record<'owner' | 'admin', string>
  csrf: Record<'owner' | 'admin', string>
  actors: Record<Who, string>
}

async function team(): Promise<Team> {
  const f = await api.setupProgram({ holding_period_days: 0 })
  const owner = await signInAccount(api, f.accountId)
  const added = await addMember(api, f.accountId, 'admin')
  const admin = await signInInvited(api, added.email)
  const csrfOf = async (cookie: string) => (await open(api, '/dashboard', cookie)).text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
  const members = (await api.admin('GET', `/accounts/${f.accountId}/members`)).body.data
  const manage = (await api.admin('GET', `/programs/${f.programId}/keys`)).body.data[0]
  return {
    f,
    cookies: { owner, admin },
    csrf: { owner: await csrfOf(owner), admin: await csrfOf(admin) },
    actors: { owner: members[0].email, admin: added.email, operator: 'operator', cli: `key:${manage.key_id}:manage` },
  }
}

const list = async (path: string) => (await api.admin('GET', `${path}?limit=200`)).body.data as any[]

/** The ledger as the money entries of the log see it: each commission's review, each payout's status. */
async function ledger(f: Fixture) {
  const commissions = new Map(
    (await list(`/programs/${f.programId}/commissions`)).filter((c) => c.kind !== 'reversal').map((c) => [c.commission_id, c]),
  )
  const payouts = new Map((await list(`/programs/${f.programId}/payouts`)).map((p) => [p.payout_id, p]))
  return { commissions, payouts }
}

/** One step, by its actor, through the surface that actor uses. */
async function act(t: Team, step: Op, before: Awaited<ReturnType<typeof ledger>>) {
  const { f } = t
  if (step.kind === 'sale') {
    const url = `https://shop.test/?aff=${f.shortLink}${step.held ? '&gclid=1' : ''}`
    const click = await k.click(f, { affiliate_url: url }, { 'x-forwarded-for': `203.0.113.${1 + (step.amount % 250)}` })
    const key = unique('c')
    await k.lead(f, { click_id: click.body.click_id, customer_key: key })
    await k.sale(f, { transaction_id: unique('t'), customer_key: key, amount_cents: step.amount, currency: step.eur ? 'EUR' : 'USD' })
    return
  }
  const ids = step.kind === 'approve' || step.kind === 'reject' ? [...before.commissions.keys()] : [...before.payouts.keys()]
  const id = ids.length ? ids[('pick' in step ? step.pick : 0) % ids.length] : 999_999
  const by = step.by
  const base = `/dashboard/programs/${f.programId}`
  if (by === 'owner' || by === 'admin') {
    const path = {
      approve: `${base}/review/${id}`,
      reject: `${base}/review/${id}`,
      run: `${base}/payouts`,
      paid: `${base}/payouts/${id}/paid`,
      cancel: `${base}/payouts/${id}/cancel`,
    }[step.kind]
    const fields: Record<string, string> = {
      _csrf: t.csrf[by],
      ...(step.kind === 'approve' || step.kind === 'reject' ? { action: step.kind } : {}),
    }
    const reply = await fetch(api.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: t.cookies[by],
        origin: new URL(api.server.deps.config.publicBaseUrl).origin,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
    })
    expect(reply.status).toBe(303)
    await reply.text()
    return
  }
  if (by === 'cli') {
    await api.call('POST', `/api/v1/cli/commissions/${id}/${step.kind}`, { token: f.apiKey, body: step.kind === 'reject' ? {} : undefined })
    return
  }
  const path = {
    approve: `/commissions/${id}/approve`,
    reject: `/commissions/${id}/reject`,
    run: `/programs/${f.programId}/payouts`,
    paid: `/payouts/${id}/paid`,
    cancel: `/payouts/${id}/cancel`,
  }[step.kind]
  await api.call('POST', `/api/v1/admin${path}`, {
    token: ADMIN_TOKEN,
    body: step.kind === 'cancel' || step.kind === 'approve' ? undefined : {},
  })
}

/** What the ledger says moved between two readings, as the log should name it, by `actor`. */
function moves(before: Awaited<ReturnType<typeof ledger>>, after: Awaited<ReturnType<typeof ledger>>, actor: string): Move[] {
  const out: Move[] = []
  const money = (x: any) => ({ amount_cents: x.amount_cents, currency: x.currency, partner_id: x.partner_id })
  for (const [id, c] of after.commissions) {
    const was = before.commissions.get(id)
    if (was?.review === 'held' && c.review !== 'held')
      out.push({ action: `commission.${c.review === 'approved' ? 'approve' : 'reject'}`, object_id: String(id), actor, ...money(c) })
  }
  for (const [id, p] of after.payouts) {
    const was = before.payouts.get(id)
    if (!was) out.push({ action: 'payout.run', object_id: String(id), actor, ...money(p) })
    if (was?.status !== 'paid' && p.status === 'paid') out.push({ action: 'payout.paid', object_id: String(id), actor, ...money(p) })
    if (was && was.status !== 'canceled' && p.status === 'canceled')
      out.push({ action: 'payout.cancel', object_id: String(id), actor, ...money(p) })
  }
  return out
}

const key = (m: Move) => JSON.stringify([m.action, m.object_id, m.actor, m.amount_cents, m.currency, m.partner_id])

test('the audit log and the ledger agree on who moved which money', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 16 }), async (steps) => {
      const t = await team()
      const expected: Move[] = []
      let before = await ledger(t.f)
      for (const step of steps) {
        await act(t, step, before)
        const after = await ledger(t.f)
        expected.push(...moves(before, after, step.kind === 'sale' ? 'nobody' : t.actors[step.by]))
        before = after
      }
      const logged = ((await list(`/programs/${t.f.programId}/audit`)) as any[])
        .filter((e) => e.action.startsWith('commission.') || e.action.startsWith('payout.'))
        .map((e) => ({
          action: e.action,
          object_id: e.object_id,
          actor: e.actor,
          amount_cents: e.details.amount_cents,
          currency: e.details.currency,
          partner_id: e.details.partner_id,
        }))
      expect(logged.map(key).sort()).toEqual(expected.map(key).sort())
    }),
    seeded({ numRuns: 25 }),
  )
}, 120_000)
