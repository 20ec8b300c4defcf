// A hostile or broken source (the security review of issue 38): the import reaches no private
// address (checked on every request, no redirect followed), never shows a source's raw answer,
// reads at most 10 MB an answer, stops on a repeated page or past its caps, and can be canceled.
// The source is a local server answering Rewardful's documented shapes
// (https://developers.rewardful.com/rest-api/: Basic auth, page/limit, `{ pagination, data }`, `{ error }`).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { isPrivateAddress } from '../../src/domain/address.ts'
import { runImport } from '../../src/imports/importer.ts'
import { sealSourceKey } from '../../src/imports/key.ts'
import { type Api, startApi } from '../helpers.ts'

type Handler = (url: URL) => Response | Promise<Response>

/** A Rewardful-shaped server: `routes` by path (without /v1); any other list answers one empty page. */
function hostile(routes: Record<string, Handler> = {}) {
  const hits: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url)
      const path = url.pathname.replace(/^\/v1/, '')
      hits.push(`${path}?${url.searchParams.get('page') ?? ''}`)
      const route = routes[path]
      if (route) return route(url)
      return Response.json({ pagination: { current_page: 1, next_page: null, total_pages: 1 }, data: [] })
    },
  })
  return { url: `http://127.0.0.1:${server.port}/v1`, port: server.port, hits, stop: () => server.stop(true) }
}

const page = (n: number, next: number | null, data: unknown[] = []) =>
  Response.json({ pagination: { previous_page: null, current_page: n, next_page: next, total_pages: 99 }, data })

async function finished(api: Api, importId: number, tries = 800) {
  for (let i = 0; i < tries; i++) {
    const reply = await api.admin('GET', `/imports/${importId}`)
    if (reply.body.data.status === 'done' || reply.body.data.status === 'failed') return reply.body.data
    await Bun.sleep(25)
  }
  throw new Error('the import did not finish')
}

async function start(api: Api, programId: number, baseUrl: string) {
  const started = await api.admin('POST', `/programs/${programId}/imports`, {
    source: 'rewardful',
    api_key: 'sk_hostile',
    base_url: baseUrl,
  })
  expect(started.status).toBe(202)
  return started.body.data.import_id as number
}

let api: Api
beforeAll(async () => {
  api = await startApi({ env: { ALLOW_PRIVATE_URLS: 'true' } })
})
afterAll(() => api.stop())

describe('H3: the source address', () => {
  test('a redirect is not followed: the import fails naming the status, and the address it named gets nothing', async () => {
    const inside = hostile({ '/affiliates': () => page(1, null, [{ id: 'x', email: 'secret@inside.test' }]) })
    const outside = hostile({ '/affiliates': () => new Response(null, { status: 302, headers: { location: `${inside.url}/affiliates` } }) })
    try {
      const { programId } = await api.setupProgram()
      const done = await finished(api, await start(api, programId, outside.url))
      expect({ status: done.status, error: done.error }).toEqual({ status: 'failed', error: 'rewardful answered 302' })
      expect(inside.hits).toEqual([])
    } finally {
      inside.stop()
      outside.stop()
    }
  })

  test('each request checks the address: a name that resolves to a private address now is refused, naming the host only', async () => {
    const host = hostname()
    const resolved = await lookup(host, { all: true }).catch(() => [])
    // This machine's own name, where /etc/hosts says it is loopback (as the webhook SSRF test).
    if (resolved.length === 0 || !resolved.every((a) => isPrivateAddress(a.address))) return
    const strict = await startApi()
    const inside = hostile()
    try {
      const { programId } = await strict.setupProgram()
      // Queued by hand: at queue time the name did not resolve (accepted); now it names this machine.
      const { database, secret } = strict.server.deps
      const job = await database.writer.run(() =>
        database.stores.imports.create({
          programId,
          source: 'rewardful',
          apiKey: sealSourceKey(secret, 'sk_hostile'),
          dryRun: false,
          options: { baseUrl: `http://${host}:${inside.port}/v1` },
          now: strict.clock.now(),
        }),
      )
      strict.server.deps.importRunner!.wake()
      const done = await finished(strict, job.id)
      expect({ status: done.status, error: done.error }).toEqual({
        status: 'failed',
        error: `rewardful could not be reached: ${host} resolves to a private address: refused`,
      })
      expect(inside.hits).toEqual([])
    } finally {
      inside.stop()
      await strict.stop()
    }
  })

  test("the error never carries a source's raw answer: the status, and at most a short reason from its error field", async () => {
    const raw = hostile({ '/affiliates': () => new Response('<html>admin panel: db password hunter2</html>', { status: 403 }) })
    const long = hostile({ '/affiliates': () => Response.json({ error: `Forbidden ${'x'.repeat(5000)}` }, { status: 403 }) })
    try {
      const { programId } = await api.setupProgram()
      const first = await finished(api, await start(api, programId, raw.url))
      expect(first.error).toBe('rewardful answered 403')
      const second = await finished(api, await start(api, programId, long.url))
      expect(second.error.startsWith('rewardful answered 403: Forbidden xxx')).toBe(true)
      expect(second.error.length).toBeLessThanOrEqual(230)
    } finally {
      raw.stop()
      long.stop()
    }
  })
})

describe('M5: an answer is read up to 10 MB', () => {
  test('a page past 10 MB ends the import failed, and so does an error answer past it (not retried)', async () => {
    const pad = 'a'.repeat(11 * 1024 * 1024)
    const big = hostile({ '/affiliates': () => new Response(`{"pagination":{"next_page":null},"data":[],"pad":"${pad}"}`) })
    const bigError = hostile({ '/affiliates': () => new Response(pad, { status: 500 }) })
    try {
      const { programId } = await api.setupProgram()
      const done = await finished(api, await start(api, programId, big.url))
      expect({ status: done.status, error: done.error }).toEqual({
        status: 'failed',
        error: 'rewardful answered /v1/affiliates with more than 10 MB',
      })
      const failed = await finished(api, await start(api, programId, bigError.url))
      expect(failed.error).toBe('rewardful answered /v1/affiliates with more than 10 MB')
      expect(bigError.hits).toHaveLength(1)
    } finally {
      big.stop()
      bigError.stop()
    }
  })
})

describe('M4: an import ends', () => {
  test('a next page the step has already read ends it failed (no progress)', async () => {
    const loop = hostile({
      '/affiliates': (url) => {
        const n = Number(url.searchParams.get('page'))
        return page(n, n === 3 ? 2 : n + 1)
      },
    })
    try {
      const { programId } = await api.setupProgram()
      const done = await finished(api, await start(api, programId, loop.url))
      expect({ status: done.status, error: done.error }).toEqual({
        status: 'failed',
        error: 'rewardful named a page of affiliates it had already answered: the import stops',
      })
      expect(loop.hits.filter((h) => h.startsWith('/affiliates'))).toEqual(['/affiliates?1', '/affiliates?2', '/affiliates?3'])
    } finally {
      loop.stop()
    }
  })

  test('past its page cap or its row cap it ends failed', async () => {
    const endless = hostile({
      '/affiliates': (url) => {
        const n = Number(url.searchParams.get('page') ?? '1')
        return page(n, n + 1, [{ id: `a${n}`, email: `a${n}@x.test` }, { id: `b${n}` }])
      },
    })
    try {
      const { programId } = await api.setupProgram()
      const { database, secret } = api.server.deps
      const queue = () =>
        database.writer.run(() =>
          database.stores.imports.create({
            programId,
            source: 'rewardful',
            apiKey: sealSourceKey(secret, 'sk_hostile'),
            dryRun: true,
            options: { baseUrl: endless.url },
            now: api.clock.now(),
          }),
        )
      const deps = { database, clock: api.server.deps.clock, secret, allowPrivate: true }
      const byPages = await queue()
      await runImport({ ...deps, limits: { pages: 5, rows: 1000 } }, byPages.id, new AbortController().signal)
      expect(database.stores.imports.find(byPages.id)).toMatchObject({
        status: 'failed',
        error: 'rewardful answered more than 5 pages: the import stops',
      })
      const byRows = await queue()
      await runImport({ ...deps, limits: { pages: 1000, rows: 7 } }, byRows.id, new AbortController().signal)
      expect(database.stores.imports.find(byRows.id)).toMatchObject({
        status: 'failed',
        error: 'rewardful answered more than 7 rows: the import stops',
      })
    } finally {
      endless.stop()
    }
  })

  test('POST /imports/:id/cancel ends a running import failed "canceled", audited; the next import runs', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let reached = () => {}
    const arrived = new Promise<void>((resolve) => {
      reached = resolve
    })
    const stuck = hostile({
      '/affiliates': () => {
        reached()
        return held.then(() => page(1, null))
      },
    })
    const fine = hostile()
    try {
      const { programId, apiKey } = await api.setupProgram()
      const running = await start(api, programId, stuck.url)
      await arrived
      const queued = await start(api, programId, fine.url)
      const canceled = await api.admin('POST', `/imports/${running}/cancel`)
      expect(canceled.status).toBe(200)
      expect(canceled.body.data).toMatchObject({ import_id: running, status: 'failed', error: 'canceled' })
      // The next import is not blocked behind it.
      expect((await finished(api, queued)).status).toBe('done')
      release()
      await Bun.sleep(50)
      expect((await api.admin('GET', `/imports/${running}`)).body.data).toMatchObject({ status: 'failed', error: 'canceled', read_rows: 0 })
      expect((await api.admin('POST', `/imports/${running}/cancel`)).status).toBe(409)
      expect((await api.admin('POST', '/imports/999999/cancel')).status).toBe(404)
      const audit = (await api.admin('GET', `/programs/${programId}/audit`)).body.data
      expect(audit.map((e: { action: string }) => e.action)).toContain('import.cancel')

      // The CLI route, with the program's manage key: only its own program's imports.
      const other = await api.setupProgram()
      const third = await start(api, programId, stuck.url)
      const foreign = await api.call('POST', `/api/v1/cli/imports/${third}/cancel`, { token: other.apiKey })
      expect(foreign.status).toBe(404)
      const own = await api.call('POST', `/api/v1/cli/imports/${third}/cancel`, { token: apiKey })
      expect(own.status).toBe(200)
      expect(own.body.data).toMatchObject({ status: 'failed', error: 'canceled' })
    } finally {
      release()
      stuck.stop()
      fine.stop()
    }
  })
})
