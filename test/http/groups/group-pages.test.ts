// The dashboard's Groups page and forms, the group on partner rows and its ?group_id= filter, the
// partner page's group and bonus forms (docs/decisions.md, Groups), through real form posts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Api } from '../../helpers.ts'
import { publicOrigin, signInAccount } from '../pages/sessions.ts'
import { kit, trackingSetup } from '../track/kit.ts'

let api: Api
beforeAll(async () => ({ api } = await trackingSetup()))
afterAll(() => api.stop())

const csrfOf = (text: string) => text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!

/** A signed-in owner's browser: GETs and same-site form posts with the page's token. */
async function owner(accountId: number) {
  const cookie = await signInAccount(api, accountId)
  const get = async (path: string) => {
    const reply = await fetch(api.url + path, { headers: { cookie }, redirect: 'manual' })
    return { status: reply.status, text: await reply.text() }
  }
  const csrf = csrfOf((await get('/dashboard')).text)
  const post = async (path: string, form: Record<string, string>) => {
    const reply = await fetch(api.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
    })
    await reply.text()
    return { status: reply.status, location: reply.headers.get('location') ?? '' }
  }
  return { get, post }
}

const groupForm = {
  name: 'Influencers',
  commission_type: '',
  commission_rate: '30',
  recurring_months: '',
  holding_period_days: '14',
  discount_coupon_id: 'INFL20',
  discount_description: '20% off the first year',
  partner_signup: 'open',
}

describe('the Groups page', () => {
  test('create, change, refuse a bad field, and delete only when empty', async () => {
    const f = await api.setupProgram({ commission_type: 'percent', commission_rate: 10 })
    const o = await owner(f.accountId)
    const base = `/dashboard/programs/${f.programId}`
    const empty = await o.get(`${base}/groups`)
    expect(empty.status).toBe(200)
    expect(empty.text).toContain('No group yet')
    const made = await o.post(`${base}/groups`, groupForm)
    expect(made.status).toBe(303)
    expect(made.location).toStartWith(`${base}/groups?done=group_created#group-`)
    const [group] = (await api.admin('GET', `/programs/${f.programId}/groups`)).body.data
    expect(group).toMatchObject({
      name: 'Influencers',
      commission_type: null,
      commission_rate: 30,
      holding_period_days: 14,
      discount: { coupon_id: 'INFL20', description: '20% off the first year' },
      partner_signup: 'open',
    })
    const listed = (await o.get(`${base}/groups`)).text
    expect(listed).toContain('30% of each referred customer')
    expect(listed).toContain('20% off the first year')
    expect(listed).toContain(`/join/${f.programId}/${group.group_id}`)
    const refused = await o.post(`${base}/groups/${group.group_id}`, { ...groupForm, commission_rate: '150' })
    expect(refused.location).toBe(`${base}/groups?error=group_rate`)
    const noWords = await o.post(`${base}/groups/${group.group_id}`, { ...groupForm, discount_description: '' })
    expect(noWords.location).toBe(`${base}/groups?error=group_discount`)
    const changed = await o.post(`${base}/groups/${group.group_id}`, {
      ...groupForm,
      name: 'Creators',
      discount_coupon_id: '',
      discount_description: '',
    })
    expect(changed.location).toStartWith(`${base}/groups?done=group_saved`)
    expect((await api.admin('GET', `/programs/${f.programId}/groups`)).body.data[0]).toMatchObject({ name: 'Creators', discount: null })
    // The partner page moves the partner into it; then the group cannot be deleted.
    const moved = await o.post(`${base}/partners/${f.partnerId}`, { name: 'Ada', group_id: String(group.group_id) })
    expect(moved.location).toContain('done=partner_saved')
    const page = (await o.get(`${base}/partners/${f.partnerId}`)).text
    expect(page).toContain(`<option value="${group.group_id}" selected>Creators</option>`)
    expect(page).toContain('30% of each referred customer')
    // The edit form says what an empty term means for this partner: the group's rate, not the program's.
    expect(page).toContain('placeholder="the group&#39;s (30)"')
    expect((await o.post(`${base}/groups/${group.group_id}/delete`, {})).location).toBe(`${base}/groups?error=group_has_partners`)
    // The partners list shows the group on the row and filters by it.
    const rows = (await o.get(`${base}/partners?group_id=${group.group_id}`)).text
    expect(rows).toContain(`data-group="${group.group_id}">Creators</span>`)
    expect((await o.get(`${base}/partners?group_id=999999`)).text).toContain('No partner matches.')
    await o.post(`${base}/partners/${f.partnerId}`, { name: 'Ada', group_id: '' })
    expect((await o.post(`${base}/groups/${group.group_id}/delete`, {})).location).toBe(`${base}/groups?done=group_deleted`)
    expect((await api.admin('GET', `/programs/${f.programId}/groups`)).body.data).toEqual([])
    // Another program's group is no group of this one.
    const other = await api.setupProgram()
    const foreign = (await api.admin('POST', `/programs/${other.programId}/groups`, { name: 'Theirs' })).body.data.group_id
    expect((await o.post(`${base}/groups/${foreign}/delete`, {})).status).toBe(404)
    expect((await o.post(`${base}/partners/${f.partnerId}`, { name: 'Ada', group_id: String(foreign) })).location).toContain(
      'error=partner_group_invalid',
    )
  })

  test('the partner page books a bonus in major units', async () => {
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const base = `/dashboard/programs/${f.programId}/partners/${f.partnerId}`
    expect((await o.post(`${base}/bonuses`, { amount: '12.5', currency: 'EUR', description: 'Contest' })).location).toBe(
      `${base}?done=bonus_booked#bonus`,
    )
    expect((await o.post(`${base}/bonuses`, { amount: '1.234', currency: 'USD', description: 'x' })).location).toBe(
      `${base}?error=bonus_amount#bonus`,
    )
    expect((await o.post(`${base}/bonuses`, { amount: '5', currency: 'JPY', description: 'x' })).location).toBe(
      `${base}?error=bonus_currency#bonus`,
    )
    expect((await o.post(`${base}/bonuses`, { amount: '5', currency: 'USD', description: '' })).location).toBe(
      `${base}?error=bonus_description#bonus`,
    )
    const ledger = (await api.admin('GET', `/programs/${f.programId}/commissions`)).body.data
    expect(ledger.map((e: { kind: string; amount_cents: number; currency: string }) => [e.kind, e.amount_cents, e.currency])).toEqual([
      ['bonus', 1250, 'EUR'],
    ])
    const commissions = (await o.get(`/dashboard/programs/${f.programId}/commissions`)).text
    expect(commissions).toContain('bonus: Contest')
  })
})

describe('the overview', () => {
  test('draws clicks and sales per day for each group, and for the partners in none', async () => {
    const k = kit(api)
    const f = await api.setupProgram()
    const o = await owner(f.accountId)
    const g = (await api.admin('POST', `/programs/${f.programId}/groups`, { name: 'Creators' })).body.data.group_id
    const bob = await k.partnerLink(f, `bob${Date.now()}`)
    await api.admin('PATCH', `/programs/${f.programId}/partners/${f.partnerId}`, { group_id: g })
    for (let i = 0; i < 3; i++) await k.clickId(f)
    await k.clickId(bob)
    const page = (await o.get(`/dashboard/programs/${f.programId}`)).text
    const charts = page.slice(page.indexOf('data-group-charts'))
    expect(charts).toContain('Creators: clicks <span class="muted">(3 in all)')
    expect(charts).toContain('Creators: sales')
    expect(charts).toContain('No group: clicks <span class="muted">(1 in all)')
    // Without groups there is no such section.
    const plain = await api.setupProgram()
    expect((await (await owner(plain.accountId)).get(`/dashboard/programs/${plain.programId}`)).text).not.toContain('data-group-charts')
  })
})
