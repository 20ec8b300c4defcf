// M7 of the review of issue 38: after an import, a parameter other than `aff` (Tolt's `ref`)
// finds only the links an import brought. A new partner who takes a value the merchant's own
// links carry (`?ref=newsletter`) as their short link gets no click by it; by `aff` they do.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Api, startApi } from '../helpers.ts'
import { startFake, world } from './fake-sources.ts'

let api: Api
beforeAll(async () => {
  api = await startApi({ env: { ALLOW_PRIVATE_URLS: 'true' } })
})
afterAll(() => api.stop())

async function finished(importId: number) {
  for (let i = 0; i < 400; i++) {
    const reply = await api.admin('GET', `/imports/${importId}`)
    if (reply.body.data.status === 'done' || reply.body.data.status === 'failed') return reply.body.data
    await Bun.sleep(25)
  }
  throw new Error('the import did not finish')
}

test("after a Tolt import, ?ref= finds the imported links only: a new partner's link of a common value is not reached by it", async () => {
  const w = world(0)
  const fake = startFake('tolt', w)
  const { programId } = await api.setupProgram()
  try {
    const started = await api.admin('POST', `/programs/${programId}/imports`, { source: 'tolt', base_url: fake.url, ...fake.credentials })
    expect((await finished(started.body.data.import_id)).status).toBe('done')
  } finally {
    fake.stop()
  }
  expect(api.server.deps.database.stores.programs.findProgram(programId)?.linkParams).toContain('ref')
  const click = (url: string) => api.call('POST', '/api/v1/track/click', { body: { affiliate_url: url } })
  // The imported token keeps working by ?ref=.
  expect((await click(`https://shop.test/?ref=${w.partners[0]!.token}`)).status).toBe(200)

  // A new partner claims the merchant's own ?ref= value.
  const value = `newsletter-${w.tag}`
  const partner = await api.admin('POST', `/programs/${programId}/partners`, { name: 'Newcomer' })
  const link = await api.admin('POST', `/programs/${programId}/links`, { partner_id: partner.body.data.partner_id, short_link: value })
  expect(link.status).toBe(201)
  const byRef = await click(`https://shop.test/?ref=${value}`)
  expect(byRef.status).toBe(400)
  // Answered as an unknown link, as a kept token reached through a parameter the program does not list.
  const unlisted = await click(`https://shop.test/?fpr=${w.partners[0]!.token}`)
  expect(unlisted.status).toBe(400)
  expect(byRef.body).toEqual(unlisted.body)
  // `aff` still finds every link of the program.
  expect((await click(`https://shop.test/?aff=${value}`)).status).toBe(200)
})
