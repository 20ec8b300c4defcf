import { expect } from 'bun:test'
import { startApi, type Api, type Reply } from '../../helpers.ts'

/** A server for the CLI suites: the per-minute limit scaled up, since every call here comes from one IP. */
export const startCliApi = (env: Record<string, string> = {}) => startApi({ env: { SVC_RATE_LIMIT_SCALE: '1000', ...env } })

let n = 0

/** A new account (with its advertiser) through the operator API. */
export async function newAccount(api: Api): Promise<{ accountId: number; advertiserId: number }> {
  const reply = await api.admin('POST', '/accounts', { email: `cli-${++n}-${Date.now()}@shop.test` })
  expect(reply.status).toBe(201)
  return { accountId: reply.body.data.account_id, advertiserId: reply.body.data.advertiser_id }
}

/** An id_token for the account, issued by the operator API. */
export async function idToken(api: Api, accountId: number): Promise<string> {
  return (await api.admin('POST', `/accounts/${accountId}/id-token`)).body.data.id_token
}

/** A fresh login session's state. */
export async function startSession(api: Api): Promise<string> {
  const reply = await api.call('POST', '/api/v1/cli/auth/start')
  expect(reply.status).toBe(200)
  return reply.body.data.state
}

export const poll = (api: Api, state: string): Promise<Reply> => api.call('GET', `/api/v1/cli/auth/poll?state=${encodeURIComponent(state)}`)

/** The whole login flow (start, callback, poll): a login token for a new account. */
export async function login(api: Api): Promise<{ token: string; accountId: number; advertiserId: number }> {
  const account = await newAccount(api)
  const state = await startSession(api)
  const callback = await api.call('POST', '/api/v1/cli/auth/callback', { body: { state, id_token: await idToken(api, account.accountId) } })
  expect(callback.status).toBe(200)
  const reply = await poll(api, state)
  expect(reply.body.data.status).toBe('complete')
  return { token: reply.body.data.token, ...account }
}

/** Runs SQL on the server's own database: failure injection for the 500 rows, no mocks. */
export function sqlOn(api: Api, statements: string): void {
  api.server.deps.database.client.exec(statements)
}

/** Asserts a platform-envelope error with docs/errors.md's literal message. */
export function expectError(reply: Reply, status: number, name: string, message: string): void {
  expect({ status: reply.status, body: reply.body }).toEqual({
    status,
    body: { data: null, error: { status, name, message, details: expect.any(Object) } },
  })
}

/** Asserts a CLI 500: the request id ends the message, sits in details and in the header. */
export function expectCli500(reply: Reply, message: string): void {
  const id = reply.headers.get('x-request-id')
  expect(id).toBeTruthy()
  expect(reply.status).toBe(500)
  expect(reply.body).toEqual({
    data: null,
    error: { status: 500, name: 'InternalServerError', message: `${message} (request_id: ${id})`, details: { request_id: id } },
  })
}
