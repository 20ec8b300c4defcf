import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DAY, startApi, type Api, type Fixture } from '../../helpers.ts'

let api: Api
let fixture: Fixture
let rotateBy: string
const markedAt = () => Math.floor(api.clock.now() / 1000)

beforeAll(async () => {
  api = await startApi()
  fixture = await api.setupProgram()
})
afterAll(() => api.stop())

describe('a key marked for mandatory rotation (docs/api.md, Authentication)', () => {
  let marked: number
  beforeAll(async () => {
    marked = markedAt()
    rotateBy = new Date(api.clock.now() + 7 * DAY).toISOString()
    await api.admin('POST', `/programs/${fixture.programId}/api-key/rotation`, { rotate_by: rotateBy })
  })

  test('keeps working before its deadline, with Deprecation, Sunset and Link headers and a top-level warnings entry', async () => {
    const reply = await api.call('GET', '/api/v1/programs/me/readiness', { token: fixture.apiKey })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('deprecation')).toBe(`@${marked}`)
    expect(reply.headers.get('sunset')).toBe(new Date(rotateBy).toUTCString())
    // The tests run with PORT=0, so PUBLIC_BASE_URL (and {docs_url}) defaults to http://localhost:0.
    expect(reply.headers.get('link')).toBe('<http://localhost:0/docs#api_key_rotation_required>; rel="deprecation"')
    expect(reply.body.warnings).toEqual([
      {
        code: 'api_key_rotation_required',
        message: expect.any(String),
        hint: expect.any(String),
        rotate_by: rotateBy,
        docs_url: 'http://localhost:0/docs#api_key_rotation_required',
      },
    ])
  })

  test('its error answers carry the warnings too, beside data', async () => {
    const reply = await api.call('POST', '/api/v1/track/sale', { token: fixture.apiKey, body: {} })
    expect(reply.status).toBe(400)
    expect(reply.headers.get('deprecation')).toBe(`@${marked}`)
    expect(reply.body.data).toBeNull()
    expect(reply.body.warnings[0].code).toBe('api_key_rotation_required')
  })

  test('after the deadline every request with it answers 401 api_key_rotation_required in the typed envelope', async () => {
    api.clock.advance(7 * DAY)
    for (const [method, path] of [
      ['GET', '/api/v1/programs/me/readiness'],
      ['POST', '/api/v1/track/sale'],
      ['POST', '/api/v1/track/refund'],
      ['GET', '/api/v1/cli/status'],
    ]) {
      const reply = await api.call(method, path, { token: fixture.apiKey, body: method === 'POST' ? {} : undefined })
      expect(reply.status).toBe(401)
      expect('data' in reply.body).toBe(false)
      expect(reply.body.error).toEqual({
        code: 'api_key_rotation_required',
        message: expect.any(String),
        hint: expect.any(String),
        docs_url: 'http://localhost:0/docs#api_key_rotation_required',
      })
      // This product has no settings screen: the hint names the operator API call that does it.
      expect(reply.body.error.hint).toContain('POST /api/v1/admin/programs/<program_id>/api-key')
      expect(`${reply.body.error.message} ${reply.body.error.hint}`).not.toContain('settings')
    }
  })

  test('a regenerated key works again without warnings', async () => {
    const { body } = await api.admin('POST', `/programs/${fixture.programId}/api-key`)
    const reply = await api.call('GET', '/api/v1/programs/me/readiness', { token: body.data.api_key })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('deprecation')).toBeNull()
    expect(reply.body.warnings).toBeUndefined()
  })
})
