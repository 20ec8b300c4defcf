import { beforeEach, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONNECT_SECRET, cliSuite } from './harness.ts'

const s = cliSuite()
const SECRET = 'whsec_cli_program_test'
let file: string
// Odd spacing on purpose: the file must be sent byte for byte, not re-serialised.
const EVENT =
  '{ "id": "evt_cli_1",  "type": "checkout.session.completed", "livemode": false, "data": {"object": {"id": "cs_1", "mode": "payment", "metadata": {}}} }\n'

beforeEach(() => {
  file = join(s.home.dir, 'event.json')
  writeFileSync(file, EVENT)
})

/** A program whose Stripe endpoint has SECRET as its signing secret. */
async function stripeProgram(): Promise<number> {
  const { programId } = await s.api.setupProgram()
  expect((await s.api.admin('PATCH', `/programs/${programId}`, { stripe_webhook_secret: SECRET })).status).toBeLessThan(300)
  return programId
}

test("replay signs the file as Stripe does and posts it byte for byte to the program's route, which accepts it", async () => {
  const programId = await stripeProgram()
  // Signed against the server's clock (300 s tolerance on both sides).
  const t = String(Math.floor(s.api.clock.now() / 1000))
  const r = await s.run(['stripe', 'replay', file, '--program-id', String(programId), '--secret', SECRET, '--timestamp', t])
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(r.stdout).toContain(`Delivered evt_cli_1 (checkout.session.completed) to /api/v1/webhooks/stripe/${programId}.`)
  const sent = s.tap.seen[0]!
  expect(sent.path).toBe(`/api/v1/webhooks/stripe/${programId}`)
  expect(sent.body).toBe(EVENT)
  const mac = createHmac('sha256', SECRET).update(`${t}.${EVENT}`).digest('hex')
  expect(sent.headers.get('stripe-signature')).toBe(`t=${t},v1=${mac}`)
})

test('replay --connect posts to the Connect route with the secret from SVC_STRIPE_WEBHOOK_SECRET and the current time', async () => {
  // Without --timestamp the program signs with its own clock: the server's must read the same time.
  s.api.clock.set(Date.now())
  const r = await s.run(['stripe', 'replay', file, '--connect', '--json'], { ...s.env, SVC_STRIPE_WEBHOOK_SECRET: CONNECT_SECRET })
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
  expect(JSON.parse(r.stdout)).toEqual({ received: true })
  expect(s.tap.seen[0]!.path).toBe('/api/v1/webhooks/stripe')
  const t = Number(s.tap.seen[0]!.headers.get('stripe-signature')!.match(/^t=(\d+),/)![1])
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60)
})

test("a signature the server refuses is a failed request with the server's message", async () => {
  const programId = await stripeProgram()
  const t = String(Math.floor(s.api.clock.now() / 1000))
  const r = await s.run(['stripe', 'replay', file, '--program-id', String(programId), '--secret', 'whsec_wrong', '--timestamp', t])
  expect(r.code).toBe(1)
  expect(r.stderr).toStartWith('svc: ')
  expect(r.stderr.toLowerCase()).toContain('signature')
})

test('replay usage errors: no file, not JSON, no secret, neither or both targets', async () => {
  const notJson = join(s.home.dir, 'bad.json')
  writeFileSync(notJson, 'nope')
  const cases = [
    ['stripe', 'replay', '--connect', '--secret', 's'],
    ['stripe', 'replay', join(s.home.dir, 'missing.json'), '--connect', '--secret', 's'],
    ['stripe', 'replay', notJson, '--connect', '--secret', 's'],
    ['stripe', 'replay', file, '--connect'],
    ['stripe', 'replay', file, '--secret', 's'],
    ['stripe', 'replay', file, '--connect', '--program-id', '42', '--secret', 's'],
    ['stripe', 'replay', file, '--program-id', 'abc', '--secret', 's'],
    ['stripe', 'push', file],
  ]
  for (const args of cases) expect({ args, code: (await s.run(args)).code }).toEqual({ args, code: 2 })
  expect(s.tap.seen.length).toBe(0)
})
