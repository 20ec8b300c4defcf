// Settings → Import: the form starts an import, the page follows it (Refresh while it runs) and
// shows its counts and skipped rows; screenshots at 1280 and 390 px are taken by the browser suite.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Api, atPublicUrl, startApi } from '../helpers.ts'
import { openPage, signInAccount } from '../http/pages/sessions.ts'
import { startFake, world } from './fake-sources.ts'

let api: Api
beforeAll(async () => {
  api = await startApi({ env: { ...(await atPublicUrl()), ALLOW_PRIVATE_URLS: 'true' } })
})
afterAll(() => api.stop())

const open = (path: string, cookie: string, form?: Record<string, string>) => openPage(api, path, cookie, form)

test('the owner starts an import from the page and follows it to its counts', async () => {
  const f = await api.setupProgram()
  const cookie = await signInAccount(api, f.accountId)
  const base = `/dashboard/programs/${f.programId}/settings/import`
  const empty = await open(base, cookie)
  expect(empty.status).toBe(200)
  expect(empty.text).toContain('Import from another tool')
  expect(empty.text).toContain('No import yet.')
  const csrf = empty.text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
  expect((await open(`/dashboard/programs/${f.programId}/settings`, cookie)).text).toContain(`href="${base}"`)

  // Tolt without its program id is refused with the reason; nothing is queued.
  const refused = await open(base, cookie, { _csrf: csrf, source: 'tolt', api_key: 'k' })
  expect(refused.headers.get('location')).toBe(`${base}?error=import_tolt`)
  expect((await open(`${base}?error=import_tolt`, cookie)).text).toContain('Tolt needs its program id.')

  const w = world(2)
  const fake = startFake('partnerstack', w)
  try {
    // The fake's address is this machine's: allowed by ALLOW_PRIVATE_URLS. A wrong key: the import fails and the page says why.
    const started = await open(base, cookie, { _csrf: csrf, source: 'partnerstack', api_key: 'wrong:pair', base_url: fake.url })
    expect(started.headers.get('location')).toBe(`${base}?done=import_started`)
    const following = await open(base, cookie)
    expect(following.text).toMatch(/partnerstack|PartnerStack/)
    let shown = following
    for (let i = 0; i < 400 && !/status-(active|rejected)/.test(shown.text); i++) {
      await Bun.sleep(25)
      shown = await open(base, cookie)
    }
    expect(shown.headers.get('refresh')).toBeNull()
    expect(shown.text).toContain('status-rejected')
    expect(shown.text).toContain('partnerstack answered 401: Unauthorized')

    const ok = await api.admin('POST', `/programs/${f.programId}/imports`, {
      source: 'partnerstack',
      base_url: fake.url,
      ...fake.credentials,
    })
    for (let i = 0; i < 400; i++) {
      if ((await api.admin('GET', `/imports/${ok.body.data.import_id}`)).body.data.status === 'done') break
      await Bun.sleep(25)
    }
    const done = await open(base, cookie)
    expect(done.text).toContain(`data-import="${ok.body.data.import_id}"`)
    expect(done.text).toMatch(/<td>commissions<\/td><td class="n">6<\/td>/)
  } finally {
    fake.stop()
  }
})

test('while an import runs the page reloads itself', async () => {
  const f = await api.setupProgram()
  const cookie = await signInAccount(api, f.accountId)
  const w = world(300)
  const fake = startFake('partnerstack', w)
  const held = fake.hold('/rewards', `rew_${w.commissions[249]!.n}`)
  try {
    await api.admin('POST', `/programs/${f.programId}/imports`, { source: 'partnerstack', base_url: fake.url, ...fake.credentials })
    await held.reached
    const running = await open(`/dashboard/programs/${f.programId}/settings/import`, cookie)
    expect(running.headers.get('refresh')).toBe('3')
    expect(running.text).toMatch(/Reading PartnerStack: <b>\d+<\/b> rows so far/)
    // A running import has its Cancel button; it ends the import failed, "canceled".
    const action = running.text.match(/action="([^"]+\/cancel)"/)![1]!
    const csrf = running.text.match(/name="_csrf" value="([0-9a-f]{64})"/)![1]!
    const canceled = await open(action, cookie, { _csrf: csrf })
    expect(canceled.headers.get('location')).toBe(`/dashboard/programs/${f.programId}/settings/import?done=import_canceled`)
    const after = await open(`/dashboard/programs/${f.programId}/settings/import?done=import_canceled`, cookie)
    expect(after.text).toContain('Import canceled')
    expect(after.text).toContain('<p class="error" role="alert">canceled</p>')
    expect(after.text).not.toContain('/cancel"')
    expect(after.headers.get('refresh')).toBeNull()
  } finally {
    held.release()
    fake.stop()
  }
})
