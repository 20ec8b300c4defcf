import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { signIdToken } from '../../../src/domain/id-token.ts'
import { PENDING_SESSIONS_PER_IP } from '../../../src/domain/cli-session.ts'
import { minutes, type Api } from '../../helpers.ts'
import { expectCli500, expectError, idToken, login, newAccount, poll, sqlOn, startCliApi, startSession } from './fixtures.ts'

let api: Api
beforeAll(async () => {
  api = await startCliApi()
})
afterAll(() => api.stop())

const callback = (body: unknown) => api.call('POST', '/api/v1/cli/auth/callback', { body })

describe('POST /api/v1/cli/auth/start', () => {
  test('creates a session: an unguessable state, the login URL and an expiry 5 minutes ahead', async () => {
    const reply = await api.call('POST', '/api/v1/cli/auth/start')
    expect(reply.status).toBe(200)
    const { state, login_url, expires_at } = reply.body.data
    expect(Buffer.from(state, 'base64url').length).toBeGreaterThanOrEqual(16)
    expect(login_url).toBe(`${api.server.deps.config.publicBaseUrl}/cli/login?state=${state}`)
    expect(Date.parse(expires_at) - api.clock.now()).toBe(300_000)
    expect(reply.body.error).toBeNull()
    expect(reply.headers.get('x-request-id')).toBeTruthy()
    expect(await startSession(api)).not.toBe(state)
  })

  test('answers 500 with the request id when the session cannot be created', async () => {
    const broken = await startCliApi()
    sqlOn(broken, "CREATE TRIGGER no_sessions BEFORE INSERT ON cli_sessions BEGIN SELECT RAISE(ABORT, 'injected'); END")
    expectCli500(await broken.call('POST', '/api/v1/cli/auth/start'), 'Failed to start auth session')
    expect(broken.errors.length).toBe(1)
    await broken.stop()
  })
})

describe('POST /api/v1/cli/auth/callback', () => {
  test('a missing state or id_token answers 400 with the one message', async () => {
    for (const body of [{}, { state: 'x' }, { id_token: 'y' }, { state: '', id_token: 'y' }, { state: 5, id_token: 'y' }, []]) {
      expectError(await callback(body), 400, 'BadRequestError', 'Missing required fields: state, id_token')
    }
  })

  test('an unknown state answers 404', async () => {
    const { accountId } = await newAccount(api)
    expectError(
      await callback({ state: 'no-such-state', id_token: await idToken(api, accountId) }),
      404,
      'NotFoundError',
      'Session not found or already used',
    )
  })

  test('a used state answers 404, before and after the token was polled', async () => {
    const { accountId } = await newAccount(api)
    const state = await startSession(api)
    const token = await idToken(api, accountId)
    expect((await callback({ state, id_token: token })).body).toEqual({ data: { state, status: 'complete' }, error: null })
    expectError(await callback({ state, id_token: token }), 404, 'NotFoundError', 'Session not found or already used')
    await poll(api, state)
    expectError(await callback({ state, id_token: token }), 404, 'NotFoundError', 'Session not found or already used')
  })

  test('a session older than 5 minutes answers 400 Session expired; at 5 minutes it still signs in', async () => {
    const { accountId } = await newAccount(api)
    const late = await startSession(api)
    const onTime = await startSession(api)
    const token = await idToken(api, accountId)
    api.clock.advance(minutes(5))
    expect((await callback({ state: onTime, id_token: token })).status).toBe(200)
    api.clock.advance(1)
    expectError(await callback({ state: late, id_token: token }), 400, 'BadRequestError', 'Session expired')
  })

  test('a tampered, expired, foreign or malformed id_token answers 401 and leaves the session pending', async () => {
    const { accountId } = await newAccount(api)
    const stale = await idToken(api, accountId)
    api.clock.advance(minutes(10))
    const state = await startSession(api)
    const good = await idToken(api, accountId)
    const [head, , signature] = good.split('.')
    const iat = Math.floor(api.clock.now() / 1000)
    const claims = { sub: accountId, iss: api.server.deps.config.publicBaseUrl, aud: 'svc-cli' as const, iat, exp: iat + 600 }
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: accountId + 1 })).toString('base64url')}.${signature}`
    const refused: [string, string][] = [
      [tampered, 'bad_signature'],
      [signIdToken(claims, 'another-servers-secret'), 'bad_signature'],
      [signIdToken({ ...claims, iss: 'https://other.example' }, api.server.deps.secret), 'foreign'],
      [signIdToken({ ...claims, sub: 999_999 }, api.server.deps.secret), 'unknown_account'],
      [stale, 'expired'],
      ['not-a-token', 'malformed'],
    ]
    for (const [token, reason] of refused) {
      const before = api.warnings.length
      const reply = await callback({ state, id_token: token })
      expectError(reply, 401, 'UnauthorizedError', 'Invalid id_token')
      // details is empty, as on every 401; the reason is told to the operator's log only.
      expect(reply.body.error.details).toEqual({})
      expect(api.warnings.slice(before)).toEqual([
        expect.objectContaining({ msg: 'id_token refused', reason, request_id: reply.headers.get('x-request-id') }),
      ])
    }
    expect((await poll(api, state)).body.data.status).toBe('pending')
    expect((await callback({ state, id_token: good })).status).toBe(200)
  })

  test('a suspended account answers 403 with details.code ACCOUNT_BLOCKED and cannot sign in', async () => {
    const { accountId } = await newAccount(api)
    await api.admin('POST', `/accounts/${accountId}/suspend`)
    const state = await startSession(api)
    const reply = await callback({ state, id_token: await idToken(api, accountId) })
    expectError(reply, 403, 'ForbiddenError', 'Your account has been suspended.')
    expect(reply.body.error.details).toEqual({ code: 'ACCOUNT_BLOCKED' })
    expect((await poll(api, state)).body.data.status).toBe('pending')
  })

  test('answers 500 with the request id when the login token cannot be stored, and the session stays pending', async () => {
    const broken = await startCliApi()
    const { accountId } = await newAccount(broken)
    const state = await startSession(broken)
    sqlOn(broken, "CREATE TRIGGER no_tokens BEFORE INSERT ON login_tokens BEGIN SELECT RAISE(ABORT, 'injected'); END")
    expectCli500(
      await broken.call('POST', '/api/v1/cli/auth/callback', { body: { state, id_token: await idToken(broken, accountId) } }),
      'Auth callback failed',
    )
    expect((await poll(broken, state)).body.data.status).toBe('pending')
    await broken.stop()
  })
})

describe('GET /api/v1/cli/auth/poll', () => {
  test('a missing or empty state answers 400 Missing state parameter', async () => {
    for (const path of ['/api/v1/cli/auth/poll', '/api/v1/cli/auth/poll?state=', '/api/v1/cli/auth/poll?state=%20']) {
      expectError(await api.call('GET', path), 400, 'BadRequestError', 'Missing state parameter')
    }
  })

  test('an unknown state answers 404 Session not found', async () => {
    expectError(await poll(api, 'no-such-state'), 404, 'NotFoundError', 'Session not found')
  })

  test('answers pending, then the token once, then 400 Session already consumed', async () => {
    const { accountId } = await newAccount(api)
    const state = await startSession(api)
    expect((await poll(api, state)).body).toEqual({ data: { status: 'pending', expires_at: expect.any(String) }, error: null })
    await callback({ state, id_token: await idToken(api, accountId) })
    const first = await poll(api, state)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ data: { status: 'complete', token: expect.stringMatching(/^svc_login_/) }, error: null })
    expectError(await poll(api, state), 400, 'BadRequestError', 'Session already consumed')
    const list = await api.call('GET', '/api/v1/cli/programs', { token: first.body.data.token })
    expect(list.status).toBe(200)
  })

  test('a pending session older than 5 minutes answers 200 with data.status expired', async () => {
    const state = await startSession(api)
    api.clock.advance(minutes(5) + 1)
    const reply = await poll(api, state)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ data: { status: 'expired' }, error: null })
  })

  test('concurrent polls hand the token out exactly once', async () => {
    const { accountId } = await newAccount(api)
    const state = await startSession(api)
    await callback({ state, id_token: await idToken(api, accountId) })
    const replies = await Promise.all(Array.from({ length: 8 }, () => poll(api, state)))
    const handed = replies.filter((r) => r.status === 200)
    expect(handed).toHaveLength(1)
    expect(handed[0].body.data.token).toMatch(/^svc_login_/)
    for (const r of replies.filter((r) => r.status !== 200)) expectError(r, 400, 'BadRequestError', 'Session already consumed')
  })

  test('a signed-in session older than 5 minutes polls as expired and its uncollected token is withdrawn', async () => {
    const { accountId } = await newAccount(api)
    const state = await startSession(api)
    await callback({ state, id_token: await idToken(api, accountId) })
    api.clock.advance(minutes(5) + 1)
    expect((await poll(api, state)).body.data).toEqual({ status: 'expired' })
    const row = api.server.deps.database.client.prepare('SELECT pending_token FROM cli_sessions WHERE state = ?').get(state)
    expect(row).toEqual({ pending_token: null })
    const tokens = api.server.deps.database.client.prepare('SELECT count(*) AS n FROM login_tokens WHERE account_id = ?').get(accountId)
    expect(tokens).toEqual({ n: 0 })
  })

  test('answers 500 with the request id when the session cannot be updated; the token is not lost', async () => {
    const broken = await startCliApi()
    const { accountId } = await newAccount(broken)
    const state = await startSession(broken)
    await broken.call('POST', '/api/v1/cli/auth/callback', { body: { state, id_token: await idToken(broken, accountId) } })
    sqlOn(broken, "CREATE TRIGGER no_updates BEFORE UPDATE ON cli_sessions BEGIN SELECT RAISE(ABORT, 'injected'); END")
    expectCli500(await poll(broken, state), 'Failed to poll auth session')
    sqlOn(broken, 'DROP TRIGGER no_updates')
    expect((await poll(broken, state)).body.data.status).toBe('complete')
    await broken.stop()
  })
})

describe('the login page, the retired route and the reference', () => {
  test('GET /cli/login explains how to finish with an id_token, and echoes only a well-formed state', async () => {
    const state = await startSession(api)
    const page = await fetch(`${api.url}/cli/login?state=${state}`)
    expect(page.headers.get('content-type')).toContain('text/html')
    const html = await page.text()
    expect(html).toContain(`"state":"${state}"`)
    expect(html).toContain('/api/v1/cli/auth/callback')
    expect(html).toContain('/id-token')
    // The dashboard exists on every server: the page once said there was none.
    expect(html).not.toMatch(/no dashboard/i)
    expect(html).toContain(`href="${api.server.deps.config.publicBaseUrl}/dashboard"`)
    const hostile = await (await fetch(`${api.url}/cli/login?state=${encodeURIComponent('<script>x</script>')}`)).text()
    expect(hostile).not.toContain('<script>x')
    expect(hostile).toContain('has no login session')
  })

  test('POST /api/v1/cli/stripe-connect answers 410 with the retired message', async () => {
    const { token } = await login(api)
    for (const options of [{}, { token, body: { code: 'ac_123' } }]) {
      expectError(
        await api.call('POST', '/api/v1/cli/stripe-connect', options),
        410,
        'GoneError',
        'This endpoint is retired. Connect the payment processor from the dashboard (program, Settings, Connect).',
      )
    }
  })

  test('/openapi.json documents every CLI route with its credential and body schema', async () => {
    const { paths } = (await api.call('GET', '/openapi.json')).body
    const security = (path: string, method: string) => paths[path]?.[method]?.security?.[0]
    expect(security('/api/v1/cli/init', 'post')).toEqual({ loginToken: [] })
    expect(security('/api/v1/cli/programs', 'get')).toEqual({ loginToken: [] })
    expect(security('/api/v1/cli/status', 'get')).toEqual({ programKey: [] })
    expect(security('/api/v1/cli/test-event', 'post')).toEqual({ programKey: [] })
    for (const path of ['/api/v1/cli/auth/start', '/api/v1/cli/auth/poll', '/api/v1/cli/stripe-connect'])
      expect(Object.keys(paths[path] ?? {})).toHaveLength(1)
    const schema = (path: string) => paths[path].post.requestBody.content['application/json'].schema
    expect(Object.keys(schema('/api/v1/cli/auth/callback').properties)).toEqual(['state', 'id_token'])
    expect(schema('/api/v1/cli/init').required).toEqual(['name', 'domain', 'commission_type', 'commission_rate'])
    expect(Object.keys(schema('/api/v1/cli/test-event').properties)).toEqual(['event_type', 'type'])
    expect(paths['/cli/login']).toBeUndefined()
  })
})

describe('hostile input (issue 9)', () => {
  test('an id_token signs in one session: a second callback with it is refused as an invalid token', async () => {
    const { accountId } = await newAccount(api)
    const token = await idToken(api, accountId)
    expect((await callback({ state: await startSession(api), id_token: token })).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const again = await callback({ state: await startSession(api), id_token: token })
      expect(again.status).toBe(401)
      // Exactly the answer of a forged token: only the operator's log tells them apart.
      const forged = await callback({ state: await startSession(api), id_token: 'not-a-token' })
      expect(again.body).toEqual(forged.body)
      expect(again.body.error).toEqual({ status: 401, name: 'UnauthorizedError', message: 'Invalid id_token', details: {} })
      expect(api.warnings.at(-2)).toMatchObject({ msg: 'id_token refused', reason: 'used' })
    }
    // Two tokens issued in the same second for one account are two tokens.
    const [a, b] = [await idToken(api, accountId), await idToken(api, accountId)]
    expect(a).not.toBe(b)
    expect((await callback({ state: await startSession(api), id_token: a })).status).toBe(200)
    expect((await callback({ state: await startSession(api), id_token: b })).status).toBe(200)
  })

  test('one client IP holds at most 100 pending login sessions; a signed-in or expired one frees its place', async () => {
    const own = await startCliApi()
    try {
      const start = () => own.call('POST', '/api/v1/cli/auth/start')
      const states: string[] = []
      // One a second: within the 60 a minute of /api/v1/cli/*, so the cap is what refuses the 101st.
      for (let i = 0; i < PENDING_SESSIONS_PER_IP; i++) {
        const reply = await start()
        expect(reply.status).toBe(200)
        states.push(reply.body.data.state)
        own.clock.advance(1_000)
      }
      const refused = await start()
      expect(refused.status).toBe(429)
      expect(refused.body).toEqual({
        error: {
          code: 'rate_limited',
          status: 429,
          retry_after_seconds: 200,
          message: 'Too many pending login sessions from this address. Finish one or let it expire (5 minutes).',
        },
      })
      expect(refused.headers.get('retry-after')).toBe('200')
      expect(refused.headers.get('x-request-id')).toBeTruthy()
      const { accountId } = await newAccount(own)
      expect(
        (await own.call('POST', '/api/v1/cli/auth/callback', { body: { state: states[50], id_token: await idToken(own, accountId) } }))
          .status,
      ).toBe(200)
      expect((await start()).status).toBe(200)
      expect((await start()).status).toBe(429)
      own.clock.advance(minutes(5))
      expect((await start()).status).toBe(200)
    } finally {
      await own.stop()
    }
  })
})
