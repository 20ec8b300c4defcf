import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { lemonsqueezy, paddle, polar, type Driver } from '../http/processors/drivers.ts'
import { cliSuite } from './harness.ts'

// `svc paddle|lemonsqueezy|polar replay FILE`: a saved event signed as its processor signs it and
// posted byte for byte, as `svc stripe replay` does (stripe-replay.test.ts).
const s = cliSuite()

async function program(d: Driver, secret: string): Promise<number> {
  const { programId } = await s.api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10 })
  expect((await s.api.admin('PATCH', `/programs/${programId}`, { [d.secretField]: secret })).status).toBe(200)
  return programId
}

for (const d of [paddle, lemonsqueezy, polar]) {
  test(`${d.name} replay signs the file as ${d.label} does; the server records it once, a second replay is the same event`, async () => {
    const secret = d.secret()
    const programId = await program(d, secret)
    const body = `${d.payment({ customer: '77', net: 4500, tax: 500, currency: 'USD' }).body}\n`
    const file = join(s.home.dir, `${d.name}.json`)
    writeFileSync(file, body)
    const t = String(Math.floor(s.api.clock.now() / 1000))
    for (let i = 0; i < 2; i++) {
      const r = await s.run([d.name, 'replay', file, '--program-id', String(programId), '--secret', secret, '--timestamp', t])
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' })
      expect(r.stdout).toContain(`to /api/v1/webhooks/${d.name}/${programId}.`)
    }
    expect(s.tap.seen[0]!.body).toBe(body)
    const events = (await s.api.admin('GET', `/programs/${programId}/events`)).body.data
    expect(events).toHaveLength(1)
    // Signed with the wrong secret: the server's 400 is a failed request.
    const wrong = await s.run([d.name, 'replay', file, '--program-id', String(programId), '--secret', 'wrong', '--timestamp', t])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('No valid signature for this endpoint')
  })
}

test('usage: --connect is Stripe only; --program-id is needed', async () => {
  const file = join(s.home.dir, 'p.json')
  writeFileSync(file, '{}')
  expect((await s.run(['paddle', 'replay', file, '--connect', '--secret', 's'])).code).toBe(2)
  expect((await s.run(['polar', 'replay', file, '--secret', 's'])).code).toBe(2)
  expect(s.tap.seen.length).toBe(0)
})
