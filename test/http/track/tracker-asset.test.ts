import { afterAll, beforeAll, expect, test } from 'bun:test'
import { gunzipSync } from 'node:zlib'
import { startApi, type Api } from '../../helpers.ts'

let api: Api
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api.stop())

const get = (headers: Record<string, string> = {}) => fetch(`${api.url}/tracker.js`, { headers })

test('GET /tracker.js answers the script with a long-lived cache header and an ETag', async () => {
  const reply = await get({ 'accept-encoding': 'identity' })
  expect(reply.status).toBe(200)
  expect(reply.headers.get('content-type')).toStartWith('application/javascript')
  expect(reply.headers.get('cache-control')).toMatch(/max-age=\d{5,}/)
  expect(reply.headers.get('etag')).toMatch(/^"[\w-]+"$/)
  expect(reply.headers.get('content-encoding')).toBeNull()
  expect(await reply.text()).toContain('svc_click_id')
})

test('a client that accepts gzip gets the gzip encoding of the same bytes', async () => {
  const plain = await (await get({ 'accept-encoding': 'identity' })).text()
  const zipped = await fetch(`${api.url}/tracker.js`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit)
  expect(zipped.headers.get('content-encoding')).toBe('gzip')
  expect(zipped.headers.get('vary')).toContain('Accept-Encoding')
  expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(plain)
})

test('If-None-Match answers 304 for the tag, its weak form, a list holding it, or *; another tag gets the script', async () => {
  const etag = (await get()).headers.get('etag')!
  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const reply = await get({ 'if-none-match': header })
    expect({ header, status: reply.status, body: await reply.text() }).toEqual({ header, status: 304, body: '' })
    expect(reply.headers.get('etag')).toBe(etag)
  }
  expect((await get({ 'if-none-match': '"other"' })).status).toBe(200)
})
