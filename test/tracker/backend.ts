// The service the browser tests talk to: the real server (test/helpers.ts startApi) set up
// through the operator API of docs/decisions.md. Nothing is faked: the tracker, the click, lead and
// sale routes and the cookie rules are all the real ones.
import { startApi } from '../helpers.ts'

export type Backend = {
  /** {base_url}; the tracker is served at `${url}/tracker.js`. */
  url: string
  programId: number
  apiKey: string
  /** short_link values (the `aff` parameter) and their partner ids. */
  links: { alice: string; bob: string }
  partners: { alice: number; bob: number }
  stop(): Promise<void>
}

export type BackendOptions = { windowDays: number; allowedOrigins: string[] }

const DOMAIN = 'shop.test'

/** Starts the real server with one program on shop.test and two partners, each with a link. */
export async function startBackend(o: BackendOptions): Promise<Backend> {
  const api = await startApi()
  const stop = () => api.stop()
  const admin = async (path: string, body?: unknown) => {
    const res = await api.admin('POST', path, body)
    if (res.status >= 300) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  const account = await admin('/accounts', { email: 'owner@shop.test', name: 'Shop owner' })
  const program = await admin('/programs', {
    account_id: account.account_id,
    name: 'Shop',
    domain: DOMAIN,
    commission_type: 'percent',
    commission_rate: 10,
    attribution_window_days: o.windowDays,
    allowed_origins: o.allowedOrigins,
  })
  const id = program.program_id
  const partnerWithLink = async (name: string) => {
    const { partner_id } = await admin(`/programs/${id}/partners`, { name, email: `${name}@partners.test` })
    const suffix = crypto.randomUUID().slice(0, 8)
    const link = await admin(`/programs/${id}/links`, { partner_id, short_link: `${name}-${suffix}` })
    return { partner: partner_id as number, link: link.short_link as string }
  }
  const alice = await partnerWithLink('alice')
  const bob = await partnerWithLink('bob')
  const url = api.url.replace(/\/+$/, '')
  const backend: Backend = {
    url,
    programId: id,
    apiKey: program.api_key,
    links: { alice: alice.link, bob: bob.link },
    partners: { alice: alice.partner, bob: bob.partner },
    stop,
  }
  return backend
}
