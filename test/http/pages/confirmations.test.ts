// docs/decisions.md, First run: actions that cannot be undone (regenerating the key, deleting) ask
// for confirmation. Every such form of the dashboard carries `data-confirm` with its question, and
// the dashboard's own script asks it before the form is sent.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Api, startApi } from '../../helpers.ts'
import { signInAccount } from './sessions.ts'

let api: Api
beforeAll(async () => {
  api = await startApi({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', SVC_RATE_LIMIT_SCALE: '1000' } })
})
afterAll(() => api.stop())

/** Each `<form>` of a page: its action and its data-confirm question (null when it has none). */
function forms(html: string): { action: string; confirm: string | null }[] {
  return [...html.matchAll(/<form\b[^>]*>/g)].map(([tag]) => ({
    action: tag.match(/action="([^"]*)"/)?.[1] ?? '',
    confirm: tag.match(/data-confirm="([^"]*)"/)?.[1] ?? null,
  }))
}

const IRREVERSIBLE = /\/(delete|api-key|secret)$/

test('every form that deletes or replaces a secret asks for confirmation first', async () => {
  const f = await api.setupProgram()
  expect((await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/coupons`, { code: 'SAVE10' })).status).toBe(201)
  expect((await api.admin('POST', `/programs/${f.programId}/webhooks`, { url: 'http://127.0.0.1:9/hooks' })).status).toBe(201)
  const cookie = await signInAccount(api, f.accountId)
  const base = `/dashboard/programs/${f.programId}`
  const found: { action: string; confirm: string | null }[] = []
  for (const path of [`${base}/partners/${f.partnerId}`, `${base}/settings`, `${base}/webhooks`]) {
    const reply = await fetch(api.url + path, { headers: { cookie } })
    expect({ path, status: reply.status }).toEqual({ path, status: 200 })
    found.push(...forms(await reply.text()).filter((form) => IRREVERSIBLE.test(form.action)))
  }
  expect(found.map((form) => form.action.replace(/\d+/g, ':id')).sort()).toEqual([
    '/dashboard/programs/:id/coupons/:id/delete',
    '/dashboard/programs/:id/partners/:id/delete',
    '/dashboard/programs/:id/settings/api-key',
    '/dashboard/programs/:id/webhooks/:id/delete',
    '/dashboard/programs/:id/webhooks/:id/secret',
  ])
  for (const { action, confirm } of found) expect({ action, asks: confirm?.includes('?') }).toEqual({ action, asks: true })
  // The question is asked by the page's own script, and a "Cancel" stops the post.
  const script = await (await fetch(`${api.url}/assets/dashboard.js`)).text()
  expect(script).toContain("getAttribute('data-confirm')")
  expect(script).toContain('window.confirm(m))e.preventDefault()')
})
