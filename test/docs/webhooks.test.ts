// docs/webhooks.md's worked example is the server's own signing, checked byte for byte, and the
// official standardwebhooks package accepts what the server signs.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { signature } from '../../src/outbox/webhooks/deliver.ts'

const doc = readFileSync(join(import.meta.dir, '../../docs/webhooks.md'), 'utf8')
const value = (label: string) => doc.match(new RegExp(`${label} \`([^\`]+)\``))![1]!

test("the worked example's signature is what the server computes", () => {
  const secret = value('secret')
  const id = value('`webhook-id`')
  const timestamp = Number(value('`webhook-timestamp`'))
  const body = value('body')
  expect(signature(secret, id, timestamp, body)).toBe(value('`webhook-signature`'))
})

test('standardwebhooks verifies a signature the server makes now, and refuses one of another secret', () => {
  const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
  const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} })
  const timestamp = Math.floor(Date.now() / 1000)
  const headers = {
    'webhook-id': 'evt_x',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, 'evt_x', timestamp, body),
  }
  expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body))
  expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(body, headers)).toThrow()
})
