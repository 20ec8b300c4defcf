// docs/decisions.md, "Safety, third round": program keys have a scope. The key that lives on the
// advertiser's web server (`track`) reports tracking and nothing else.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type Api, expectFailure, startApi } from '../../helpers.ts'

let api: Api
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api.stop())

const TRACK_ONLY = 'This key can only track'

async function trackKey(programId: number, name?: string) {
  const made = await api.admin('POST', `/programs/${programId}/keys`, { scope: 'track', ...(name ? { name } : {}) })
  expect(made.status).toBe(201)
  return made.body.data as { key_id: number; scope: string; name: string | null; api_key: string }
}

describe('track keys', () => {
  test('made with 201, shown once, listed masked after the manage key', async () => {
    const fx = await api.setupProgram()
    const made = await trackKey(fx.programId, 'web server')
    expect(made).toEqual({ key_id: expect.any(Number), scope: 'track', name: 'web server', api_key: expect.stringMatching(/^svc_track_/) })
    const listed = await api.admin('GET', `/programs/${fx.programId}/keys`)
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((k: { scope: string }) => k.scope)).toEqual(['manage', 'track'])
    expect(listed.body.data[1]).toMatchObject({ key_id: made.key_id, program_id: fx.programId, name: 'web server' })
    expect(JSON.stringify(listed.body)).not.toContain(made.api_key)
    expect(JSON.stringify(listed.body)).not.toContain(fx.apiKey)
  })

  test('a track key reports clicks, leads, sales and refunds, and reads readiness and the CLI status', async () => {
    const fx = await api.setupProgram()
    const { api_key: key } = await trackKey(fx.programId)
    const click = await api.call('POST', '/api/v1/track/click', {
      body: { affiliate_url: `https://shop.test/?aff=${fx.shortLink}` },
      token: key,
    })
    expect(click.status).toBe(200)
    const lead = await api.call('POST', '/api/v1/track/lead', { body: { click_id: click.body.click_id, customer_key: 'c1' }, token: key })
    expect(lead.status).toBe(200)
    const sale = await api.call('POST', '/api/v1/track/sale', {
      body: { transaction_id: 'in_track_1', amount_cents: 1000, currency: 'USD', customer_key: 'c1' },
      token: key,
    })
    expect(sale.status).toBe(200)
    expect(sale.body.data.commission).not.toBeNull()
    const refund = await api.call('POST', '/api/v1/track/refund', { body: { transaction_id: 'in_track_1' }, token: key })
    expect(refund.status).toBe(200)
    expect((await api.call('GET', '/api/v1/programs/me/readiness', { token: key })).status).toBe(200)
    const status = await api.call('GET', '/api/v1/cli/status', { token: key })
    expect(status.status).toBe(200)
    expect(status.body.data.program_id).toBe(fx.programId)
  })

  test('everywhere else a track key answers 403 "This key can only track", and the manage key still works', async () => {
    const fx = await api.setupProgram()
    const { api_key: key } = await trackKey(fx.programId)
    const calls: [string, string, unknown][] = [
      ['GET', '/api/v1/cli/webhooks', undefined],
      ['POST', '/api/v1/cli/webhooks', { url: 'https://hooks.example.com/svc' }],
      ['GET', '/api/v1/cli/review', undefined],
      ['POST', '/api/v1/cli/commissions/1/approve', undefined],
      ['POST', '/api/v1/cli/commissions/1/reject', { reason: 'no' }],
      ['POST', '/api/v1/cli/test-event', { type: 'click' }],
    ]
    for (const [method, path, body] of calls) {
      const reply = await api.call(method, path, { body, token: key })
      expectFailure(reply, 403, TRACK_ONLY)
      const manage = await api.call(method, path, { body, token: fx.apiKey })
      expect(manage.status).not.toBe(403)
      expect(manage.status).not.toBe(401)
    }
  })

  test('deleted, a track key answers 401 at once; the manage key cannot be deleted; regenerating leaves track keys working', async () => {
    const fx = await api.setupProgram()
    const one = await trackKey(fx.programId)
    const two = await trackKey(fx.programId)
    const manageId = (await api.admin('GET', `/programs/${fx.programId}/keys`)).body.data[0].key_id
    const refused = await api.admin('DELETE', `/keys/${manageId}`)
    expectFailure(refused, 409, "The program's manage key cannot be deleted: regenerate it instead")
    const deleted = await api.admin('DELETE', `/keys/${one.key_id}`)
    expect(deleted.body).toEqual({ data: { key_id: one.key_id, deleted: true }, error: null })
    expect((await api.call('GET', '/api/v1/cli/status', { token: one.api_key })).status).toBe(401)
    expectFailure(await api.admin('DELETE', `/keys/${one.key_id}`), 404, 'Key not found')
    const regenerated = await api.admin('POST', `/programs/${fx.programId}/api-key`)
    expect((await api.call('GET', '/api/v1/cli/status', { token: fx.apiKey })).status).toBe(401)
    expect((await api.call('GET', '/api/v1/cli/status', { token: regenerated.body.data.api_key })).status).toBe(200)
    expect((await api.call('GET', '/api/v1/cli/status', { token: two.api_key })).status).toBe(200)
    const listed = (await api.admin('GET', `/programs/${fx.programId}/keys`)).body.data
    expect(listed.map((k: { key_id: number; scope: string }) => k.scope)).toEqual(['manage', 'track'])
  })

  test('bad bodies are 400 naming the field; an unknown program is 404', async () => {
    const fx = await api.setupProgram()
    expectFailure(await api.admin('POST', `/programs/${fx.programId}/keys`, { scope: 'manage' }), 400, 'scope must be track')
    expectFailure(await api.admin('POST', `/programs/${fx.programId}/keys`, {}), 400, 'scope must be track')
    expectFailure(
      await api.admin('POST', `/programs/${fx.programId}/keys`, { scope: 'track', name: 'x'.repeat(101) }),
      400,
      'name must be a text of at most 100 characters, without control characters',
    )
    expectFailure(await api.admin('POST', '/programs/999999/keys', { scope: 'track' }), 404, 'Program not found')
  })
})
