// Small helpers shared by the tracking suites: each call goes over real HTTP to startApi's server.
import { startApi, type Api, type Fixture, type Reply } from '../../helpers.ts'

/** A server whose per-minute limits are raised, so that suites not about rate limits never hit them. */
export const roomy = { env: { SVC_RATE_LIMIT_SCALE: '1000' } }

/** A suite's server (limits scaled up: every call comes from one IP), its kit, and a program when asked for. */
export async function trackingSetup(
  program?: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<{ api: Api; k: ReturnType<typeof kit>; f: Fixture }> {
  const api = await startApi({ env: { ...roomy.env, ...env } })
  return { api, k: kit(api), f: program ? await api.setupProgram(program) : (undefined as unknown as Fixture) }
}

export type Kit = ReturnType<typeof kit>

export function kit(api: Api) {
  const click = (f: Fixture, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
    api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/pricing?aff=${f.shortLink}`, ...extra }, headers })
  const clickId = async (f: Fixture, extra: Record<string, unknown> = {}) => {
    const reply = await click(f, extra)
    if (reply.status !== 200) throw new Error(`click: ${reply.status} ${JSON.stringify(reply.body)}`)
    return reply.body.click_id as string
  }
  const lead = (f: Fixture | null, body: unknown, headers?: Record<string, string>): Promise<Reply> =>
    api.call('POST', '/api/v1/track/lead', { body, token: f?.apiKey, headers })
  const sale = (f: Fixture, body: Record<string, unknown>): Promise<Reply> =>
    api.call('POST', '/api/v1/track/sale', { body: { amount_cents: 4900, ...body }, token: f.apiKey })
  const refund = (f: Fixture, body: unknown): Promise<Reply> => api.call('POST', '/api/v1/track/refund', { body, token: f.apiKey })
  /** A program with one partner link, a click and a server-mode lead for `customerKey`. */
  const customer = async (f: Fixture, customerKey: string) => {
    const id = await clickId(f)
    const reply = await lead(f, { click_id: id, customer_key: customerKey })
    if (reply.status !== 200) throw new Error(`lead: ${reply.status} ${JSON.stringify(reply.body)}`)
    return { clickId: id, customerId: reply.body.data.customer_id as number }
  }
  /** A number straight from the database (how many rows a refusal left behind). */
  const count = (query: string, ...params: unknown[]) => (api.server.deps.database.client.prepare(query).get(...params) as { n: number }).n
  /** A second partner with its own link in the program. */
  const partnerLink = async (f: Fixture, shortLink: string) => {
    const partner = await api.admin('POST', `/programs/${f.programId}/partners`, { name: shortLink })
    await api.admin('POST', `/programs/${f.programId}/links`, { partner_id: partner.body.data.partner_id, short_link: shortLink })
    return { ...f, partnerId: partner.body.data.partner_id as number, shortLink }
  }
  return { click, clickId, lead, sale, refund, customer, count, partnerLink }
}

let n = 0
/** A fresh identifier for one test's data. */
export const unique = (prefix: string) => `${prefix}_${++n}_${Math.random().toString(36).slice(2, 8)}`
