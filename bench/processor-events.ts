/**
 * What one processor event costs against a Stripe event (issue 37): `bun bench/processor-events.ts`
 * (never run by `npm test`). In process, as bench/micro.ts: the app's fetch, waves of 32, CPU µs
 * per event, best of 5 rounds. Each event is a signed first-class payment of a prepared customer
 * (click and server-mode lead first) under a new transaction id, so each records a sale and books a
 * recurring commission: the signature check, the parse, the event row, the sale path. The events
 * are signed by the processors' own `sign` (src/processors/), just before each request.
 * BENCH_EVENTS sets the events per round and processor (default 2,000).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/http/app.ts'
import { processors, type ProcessorName } from '../src/processors/index.ts'
import { createPrograms, prepareCustomers } from './lib/fixtures.ts'
import { startQuiet } from './lib/in-process.ts'

process.env.BENCH_COMMISSION_TYPE ??= 'recurring_percent'
const N = Number(process.env.BENCH_EVENTS ?? 2000)
const TMP = mkdtempSync(join(tmpdir(), 'svc-bench-processors-'))
const ADMIN = `bench-${crypto.randomUUID()}`
const started = startQuiet({
  DATABASE_PATH: join(TMP, 'svc.db'),
  SVC_ADMIN_TOKEN: ADMIN,
  TRUST_PROXY: 'true',
  SVC_RATE_LIMIT_SCALE: '1000',
})
const { fetch } = createApp(started.deps)

// BENCH_ORDER=polar,lemonsqueezy,paddle,stripe measures in another order (to see what warming up does to the first).
const names = (process.env.BENCH_ORDER ?? 'stripe,paddle,lemonsqueezy,polar').split(',') as ProcessorName[]
const secretField: Record<ProcessorName, string> = {
  stripe: 'stripe_webhook_secret',
  paddle: 'paddle_webhook_secret',
  lemonsqueezy: 'lemonsqueezy_webhook_secret',
  polar: 'polar_webhook_secret',
}

/** A payment event of `customerKey` under a fresh id, as each processor's documentation shapes it (the fields read, and a few more). */
function payment(name: ProcessorName, n: number, customerKey: string): string {
  const at = new Date().toISOString()
  const seconds = Math.floor(Date.now() / 1000)
  const keys = { svc_customer_key: customerKey }
  switch (name) {
    case 'stripe':
      return JSON.stringify({
        id: `evt_bench_${n}`,
        object: 'event',
        type: 'checkout.session.completed',
        created: seconds,
        livemode: true,
        data: {
          object: {
            id: `cs_bench_${n}`,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'paid',
            amount_total: 4900,
            currency: 'usd',
            created: seconds,
            customer: `cus_bench_${n % 97}`,
            payment_intent: `pi_bench_${n}`,
            metadata: keys,
          },
        },
      })
    case 'paddle':
      return JSON.stringify({
        event_id: `evt_bench_${n}`,
        event_type: 'transaction.completed',
        occurred_at: at,
        notification_id: `ntf_bench_${n}`,
        data: {
          id: `txn_bench_${n}`,
          status: 'completed',
          customer_id: `ctm_bench_${n % 97}`,
          currency_code: 'USD',
          origin: 'web',
          custom_data: keys,
          details: { totals: { subtotal: '4900', tax: '0', total: '4900', grand_total: '4900', currency_code: 'USD' } },
          billed_at: at,
        },
      })
    case 'lemonsqueezy':
      return JSON.stringify({
        meta: { event_name: 'order_created', test_mode: false, custom_data: keys },
        data: {
          type: 'orders',
          id: String(n),
          attributes: {
            customer_id: n % 97,
            currency: 'USD',
            status: 'paid',
            subtotal: 4900,
            tax: 0,
            total: 4900,
            created_at: at,
            test_mode: false,
          },
        },
      })
    case 'polar':
      return JSON.stringify({
        type: 'order.paid',
        timestamp: at,
        data: {
          id: `ord-bench-${n}`,
          status: 'paid',
          paid: true,
          net_amount: 4900,
          tax_amount: 0,
          total_amount: 4900,
          currency: 'usd',
          billing_reason: 'purchase',
          customer_id: `cust-${n % 97}`,
          customer: { id: `cust-${n % 97}`, external_id: null },
          metadata: keys,
          created_at: at,
        },
      })
  }
}

try {
  const programs = await createPrograms(started.url, ADMIN, 'pe', names.length, 1)
  await prepareCustomers(started.url, programs, 4, 2_000_000)
  const secrets = names.map((name) => `${name}_bench_secret`)
  for (const [i, name] of names.entries()) {
    const reply = await fetch(
      new Request(`${started.url}/api/v1/admin/programs/${programs[i]!.programId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ [secretField[name]]: secrets[i] }),
      }),
    )
    if (reply.status !== 200) throw new Error(`PATCH ${name}: ${reply.status}`)
  }
  let n = 0
  const results: Record<string, number> = {}
  for (const [i, name] of names.entries()) {
    const program = programs[i]!
    const request = () => {
      const id = ++n
      const body = payment(name, id, program.customerKeys[id % program.customerKeys.length]!)
      const headers = processors[name].sign(body, secrets[i]!, Math.floor(Date.now() / 1000), `msg_bench_${id}`)
      return new Request(`${started.url}/api/v1/webhooks/${name}/${program.programId}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
      })
    }
    // The first event loads the processors' modules: not counted.
    await (await fetch(request())).arrayBuffer()
    const rounds: number[] = []
    for (let round = 0; round < 5; round++) {
      const t0 = process.cpuUsage()
      for (let k = 0; k < N; k += 32) {
        const answers = await Promise.all(Array.from({ length: 32 }, () => fetch(request())))
        for (const a of answers) {
          if (a.status !== 200) throw new Error(`${name} answered ${a.status}: ${await a.text()}`)
          await a.arrayBuffer()
        }
      }
      const used = process.cpuUsage(t0)
      rounds.push((used.user + used.system) / N)
    }
    results[name] = Math.min(...rounds)
    const sales = started.deps.database.client.prepare('SELECT count(*) AS n FROM sales WHERE program_id = ?').get(program.programId) as {
      n: number
    }
    console.log(
      `${name.padEnd(12)} ${results[name]!.toFixed(1)} µs CPU per event (best of 5; all ${rounds.map((r) => r.toFixed(1)).join(', ')}); ${sales.n} sales recorded` +
        (name === 'stripe' || results.stripe === undefined ? '' : `; ${(results[name]! / results.stripe).toFixed(2)} × Stripe's`),
    )
  }
  if (results.stripe !== undefined)
    console.log(
      names
        .filter((x) => x !== 'stripe')
        .map((x) => `${x} ${(results[x]! / results.stripe!).toFixed(2)} × Stripe's`)
        .join(', '),
    )
} finally {
  await started.stop()
  rmSync(TMP, { recursive: true, force: true })
}
