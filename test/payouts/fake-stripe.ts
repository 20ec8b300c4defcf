// A local Stripe API for payouts that answers the documented shapes and can hold, fail or reject:
// - transfers: docs.stripe.com/api/transfers/create (form body; `Idempotency-Key` replays the
//   first answer for 24 hours, docs.stripe.com/api/idempotent_requests; other parameters with the
//   same key: 400 idempotency_error) and docs.stripe.com/api/transfers/list (`transfer_group`)
// - accounts: docs.stripe.com/api/accounts/create, /retrieve; account links: docs.stripe.com/api/account_links/create

export interface FakeTransfer {
  id: string
  object: 'transfer'
  amount: number
  currency: string
  destination: string
  transfer_group: string | null
  metadata: Record<string, string>
  created: number
}

export interface FakeStripe {
  url: string
  transfers: FakeTransfer[]
  /** Every transfer request received, with its Idempotency-Key. */
  requests: { key: string | null; body: string }[]
  accounts: Map<string, { id: string; metadata: Record<string, string>; details_submitted: boolean; email?: string; type: string }>
  links: { account: string; return_url: string; refresh_url: string; url: string }[]
  /** `hold`: make the transfer, then never answer (until released); `lose`: make it and answer 500 (the answer lost); `fail`: 500 before; `reject`: 400. */
  mode: 'ok' | 'hold' | 'lose' | 'fail' | 'reject'
  /** Forgets every idempotency key (Stripe does after 24 hours). */
  forgetKeys(): void
  release(): void
  stop(): Promise<void>
}

export const STRIPE_KEY = 'sk_test_fake_payouts'
export const STRIPE_ENV = (url: string) => ({ STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: url })

let counter = 0
const newId = (prefix: string) => `${prefix}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 12)}`

/** Stripe's form encoding read back: `metadata[svc_payout_id]` becomes metadata.svc_payout_id. */
function fields(body: string): Record<string, any> {
  const out: Record<string, any> = {}
  for (const [key, value] of new URLSearchParams(body)) {
    const nested = /^(\w+)\[(\w+)\](?:\[(\w+)\])?$/.exec(key)
    if (!nested) out[key] = value
    else if (nested[3]) ((out[nested[1]!] ??= {})[nested[2]!] ??= {})[nested[3]] = value
    else (out[nested[1]!] ??= {})[nested[2]!] = value
  }
  return out
}

export async function startFakeStripe(): Promise<FakeStripe> {
  let keys = new Map<string, { body: string; status: number; answer: unknown }>()
  const held: (() => void)[] = []
  const json = (status: number, body: unknown) => Response.json(body, { status })
  const error = (status: number, type: string, message: string, code?: string) =>
    json(status, { error: { type, message, ...(code ? { code } : {}) } })

  const fake: FakeStripe = {
    url: '',
    transfers: [],
    requests: [],
    accounts: new Map(),
    links: [],
    mode: 'ok',
    forgetKeys: () => {
      keys = new Map()
    },
    release: () => {
      for (const answer of held.splice(0)) answer()
    },
    stop: async () => {
      fake.release()
      server.stop(true)
    },
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url)
      if (request.headers.get('authorization') !== `Bearer ${STRIPE_KEY}`)
        return error(401, 'invalid_request_error', 'Invalid API Key provided: sk_test_****')
      const body = request.method === 'POST' ? await request.text() : ''
      if (request.method === 'POST' && url.pathname === '/v1/transfers') {
        const key = request.headers.get('idempotency-key')
        fake.requests.push({ key, body })
        const seen = key ? keys.get(key) : undefined
        if (seen) {
          if (seen.body !== body)
            return error(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            )
          return json(seen.status, seen.answer)
        }
        if (fake.mode === 'fail') return error(500, 'api_error', 'An unknown error occurred')
        const f = fields(body)
        if (fake.mode === 'reject' || !fake.accounts.has(f.destination)) {
          const answer = {
            error: {
              type: 'invalid_request_error',
              code: fake.mode === 'reject' ? 'balance_insufficient' : 'resource_missing',
              message:
                fake.mode === 'reject'
                  ? 'You have insufficient available funds in your Stripe account.'
                  : `No such destination: '${f.destination}'`,
            },
          }
          if (key) keys.set(key, { body, status: 400, answer })
          return json(400, answer)
        }
        const transfer: FakeTransfer = {
          id: newId('tr_'),
          object: 'transfer',
          amount: Number(f.amount),
          currency: f.currency,
          destination: f.destination,
          transfer_group: f.transfer_group ?? null,
          metadata: f.metadata ?? {},
          created: Math.floor(Date.now() / 1000),
        }
        fake.transfers.push(transfer)
        if (key) keys.set(key, { body, status: 200, answer: transfer })
        if (fake.mode === 'hold') return new Promise<Response>((answer) => held.push(() => answer(json(200, transfer))))
        if (fake.mode === 'lose') return error(500, 'api_error', 'An unknown error occurred')
        return json(200, transfer)
      }
      if (request.method === 'GET' && url.pathname === '/v1/transfers') {
        const group = url.searchParams.get('transfer_group')
        const data = fake.transfers.filter((t) => group === null || t.transfer_group === group).reverse()
        return json(200, { object: 'list', url: '/v1/transfers', has_more: false, data })
      }
      if (request.method === 'POST' && url.pathname === '/v1/accounts') {
        const f = fields(body)
        const account = {
          id: newId('acct_'),
          object: 'account',
          type: f.type,
          email: f.email,
          metadata: f.metadata ?? {},
          details_submitted: false,
          capabilities: f.capabilities,
        }
        fake.accounts.set(account.id, account)
        return json(200, account)
      }
      const shown = /^\/v1\/accounts\/([^/]+)$/.exec(url.pathname)
      if (request.method === 'GET' && shown) {
        const account = fake.accounts.get(shown[1]!)
        return account
          ? json(200, { object: 'account', ...account })
          : error(404, 'invalid_request_error', `No such account: '${shown[1]}'`, 'resource_missing')
      }
      if (request.method === 'POST' && url.pathname === '/v1/account_links') {
        const f = fields(body)
        if (!fake.accounts.has(f.account)) return error(400, 'invalid_request_error', `No such account: '${f.account}'`, 'resource_missing')
        const link = {
          account: f.account,
          return_url: f.return_url,
          refresh_url: f.refresh_url,
          url: `https://connect.stripe.com/setup/e/${f.account}/${newId('')}`,
        }
        fake.links.push(link)
        const now = Math.floor(Date.now() / 1000)
        return json(200, { object: 'account_link', created: now, expires_at: now + 300, url: link.url })
      }
      return error(404, 'invalid_request_error', `Unrecognized request URL (${request.method}: ${url.pathname}).`)
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
