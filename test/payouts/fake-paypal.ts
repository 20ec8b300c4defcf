// A local PayPal Payouts API that answers the documented shapes and can hold, fail or reject:
// - token: developer.paypal.com/api/rest/authentication (POST /v1/oauth2/token, client credentials)
// - create batch: developer.paypal.com/api/payments.payouts-batch/v1/payouts-post (201 with
//   batch_header; PayPal-Request-Id answers the original response again; a sender_batch_id used
//   before is refused with a link to the original batch)
// - show batch: developer.paypal.com/api/payments.payouts-batch/v1/payouts-get (batch_header and
//   items with transaction_status, payout_item_id, payout_item.sender_item_id, errors)

export interface FakeItem {
  payout_item_id: string
  transaction_status: string
  payout_item: {
    recipient_type: string
    amount: { value: string; currency: string }
    receiver: string
    sender_item_id: string
    note?: string
  }
  errors?: { name: string; message: string }
}

export interface FakeBatch {
  payout_batch_id: string
  sender_batch_id: string
  requestId: string | null
  items: FakeItem[]
  polls: number
}

export interface FakePayPal {
  url: string
  /** Every batch created, in order: one per accepted sender_batch_id. */
  batches: FakeBatch[]
  /** Every create request received (a resend counts here, not in batches). */
  creates: { requestId: string | null; senderBatchId: string }[]
  /**
   * `hold`: create the batch, then never answer (until released); `lose`: create it and answer 500
   * (the answer lost); `fail`: 500 before creating; `reject`: 422 INSUFFICIENT_FUNDS.
   */
  mode: 'ok' | 'hold' | 'lose' | 'fail' | 'reject'
  /** Forgets every PayPal-Request-Id (PayPal keeps them for a limited time): a resend then meets the duplicate sender_batch_id. */
  forgetRequestIds(): void
  /** The final status of a receiver's item (SUCCESS unless told), reached at the item's `pollsToFinal`-th read. */
  outcome: (receiver: string) => { status: string; error?: { name: string; message: string } }
  pollsToFinal: number
  /** Answers the held requests (as the original response). */
  release(): void
  stop(): Promise<void>
}

const CLIENT_ID = 'fake-client'
const CLIENT_SECRET = 'fake-secret'
export const PAYPAL_ENV = (url: string) => ({ PAYPAL_CLIENT_ID: CLIENT_ID, PAYPAL_CLIENT_SECRET: CLIENT_SECRET, PAYPAL_API_BASE: url })

let counter = 0
const newId = (prefix: string) =>
  `${prefix}${(++counter).toString(36).toUpperCase().padStart(8, 'X')}${Math.random().toString(36).slice(2, 6).toUpperCase()}`

export async function startFakePayPal(port = 0): Promise<FakePayPal> {
  const tokens = new Set<string>()
  const byRequestId = new Map<string, FakeBatch>()
  const held: (() => void)[] = []
  const json = (status: number, body: unknown) => Response.json(body, { status })
  const header = (batch: FakeBatch, status: string) => ({
    payout_batch_id: batch.payout_batch_id,
    batch_status: status,
    sender_batch_header: { sender_batch_id: batch.sender_batch_id, email_subject: 'You have a payout' },
  })
  const created = (batch: FakeBatch, base: string) =>
    json(201, {
      batch_header: header(batch, 'PENDING'),
      links: [{ href: `${base}/v1/payments/payouts/${batch.payout_batch_id}`, rel: 'self', method: 'GET', encType: 'application/json' }],
    })

  const fake: FakePayPal = {
    url: '',
    batches: [],
    creates: [],
    mode: 'ok',
    outcome: () => ({ status: 'SUCCESS' }),
    pollsToFinal: 1,
    forgetRequestIds: () => byRequestId.clear(),
    release: () => {
      for (const answer of held.splice(0)) answer()
    },
    stop: async () => {
      fake.release()
      server.stop(true)
    },
  }

  const server = Bun.serve({
    port,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const base = url.origin
      if (request.method === 'POST' && url.pathname === '/v1/oauth2/token') {
        const expected = `Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`
        if (request.headers.get('authorization') !== expected || (await request.text()) !== 'grant_type=client_credentials')
          return json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' })
        const token = `A21AA${newId('T')}`
        tokens.add(token)
        return json(200, {
          scope: 'https://uri.paypal.com/services/payments/payouts',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-80W284485P519543T',
          expires_in: 32400,
          nonce: newId('N'),
        })
      }
      const bearer = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '')
      if (!tokens.has(bearer))
        return json(401, {
          name: 'AUTHENTICATION_FAILURE',
          message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
        })

      if (request.method === 'POST' && url.pathname === '/v1/payments/payouts') {
        const body = (await request.json()) as any
        const requestId = request.headers.get('paypal-request-id')
        const senderBatchId = String(body?.sender_batch_header?.sender_batch_id ?? '')
        fake.creates.push({ requestId, senderBatchId })
        // The same PayPal-Request-Id: the original response, nothing created.
        const again = requestId ? byRequestId.get(requestId) : undefined
        if (again) return created(again, base)
        if (fake.mode === 'fail') return json(500, { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.' })
        if (fake.mode === 'reject')
          return json(422, { name: 'INSUFFICIENT_FUNDS', message: 'Sender does not have sufficient funds. Please add funds and retry.' })
        const used = fake.batches.find((b) => b.sender_batch_id === senderBatchId)
        if (used)
          return json(400, {
            name: 'USER_BUSINESS_ERROR',
            message: 'User business error.',
            details: [
              { field: 'SENDER_BATCH_ID', location: 'body', issue: `Batch with given sender_batch_id already exists ${senderBatchId}` },
            ],
            links: [{ href: `${base}/v1/payments/payouts/${used.payout_batch_id}`, rel: 'self', method: 'GET' }],
          })
        const batch: FakeBatch = {
          payout_batch_id: newId('B'),
          sender_batch_id: senderBatchId,
          requestId,
          polls: 0,
          items: (body.items as any[]).map((item) => ({
            payout_item_id: newId('I'),
            transaction_status: 'PENDING',
            payout_item: {
              recipient_type: item.recipient_type,
              amount: item.amount,
              receiver: item.receiver,
              sender_item_id: item.sender_item_id,
              note: item.note,
            },
          })),
        }
        fake.batches.push(batch)
        if (requestId) byRequestId.set(requestId, batch)
        if (fake.mode === 'hold') return new Promise<Response>((answer) => held.push(() => answer(created(batch, base))))
        if (fake.mode === 'lose') return json(500, { name: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.' })
        return created(batch, base)
      }

      const shown = /^\/v1\/payments\/payouts\/([^/]+)$/.exec(url.pathname)
      if (request.method === 'GET' && shown) {
        const batch = fake.batches.find((b) => b.payout_batch_id === shown[1])
        if (!batch) return json(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' })
        batch.polls++
        for (const item of batch.items) {
          if (batch.polls < fake.pollsToFinal || item.transaction_status !== 'PENDING') continue
          const outcome = fake.outcome(item.payout_item.receiver)
          item.transaction_status = outcome.status
          if (outcome.error) item.errors = outcome.error
        }
        const final = batch.items.every((i) => i.transaction_status !== 'PENDING')
        return json(200, {
          batch_header: header(batch, final ? 'SUCCESS' : 'PROCESSING'),
          items: batch.items.map((i) => ({
            ...i,
            transaction_id: i.transaction_status === 'SUCCESS' ? `T${i.payout_item_id}` : undefined,
            payout_batch_id: batch.payout_batch_id,
          })),
          links: [],
        })
      }
      return json(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' })
    },
  })
  fake.url = `http://127.0.0.1:${server.port}`
  return fake
}
