// docs/ledger.md's worked example is the code's own encoding, hash and signature, byte for byte:
// a third party who writes a verifier from the page gets what svc computes.
import { expect, test } from 'bun:test'
import { createHash, createPrivateKey, sign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { entryText, GENESIS, type Statement, statementText, verifyStatement } from '../../src/domain/statement.ts'

const doc = readFileSync(join(import.meta.dir, '../../docs/ledger.md'), 'utf8')
const example = doc.slice(doc.indexOf('## Worked example'))
const blocks = [...example.matchAll(/```(\w*)\n([\s\S]*?)\n```/g)].map((m) => m[2]!)
const statement = JSON.parse(blocks.at(-1)!) as Statement
const hashes = [...example.matchAll(/^hash `([0-9a-f]{64})`$/gm)].map((m) => m[1]!)
const seed = example.match(/seed \(hex\) `([0-9a-f]{64})`/)![1]!

test("the example's entry texts are the code's, and each hash is their SHA-256", () => {
  let previous = GENESIS
  statement.entries.forEach(({ hash, ...fields }, i) => {
    const text = entryText(statement, fields, previous)
    expect(blocks[i]).toBe(text)
    expect(createHash('sha256').update(text).digest('hex')).toBe(hashes[i]!)
    expect(hash).toBe(hashes[i]!)
    previous = hash
  })
  expect(statement.head).toBe(previous)
})

test("the example's statement text is the code's, and the seed's key signs it to the documented signature", async () => {
  expect(blocks[3]).toBe(statementText(statement))
  const key = createPrivateKey({ key: Buffer.from(`302e020100300506032b657004220420${seed}`, 'hex'), format: 'der', type: 'pkcs8' })
  expect(sign(null, Buffer.from(statementText(statement)), key).toString('base64')).toBe(statement.signature)
  expect(await verifyStatement(statement)).toEqual({ ok: true, entries: 3, head: statement.head })
})

test('the doc names every route and field the code serves', () => {
  for (const phrase of [
    'GET /partner/statements/YYYY-MM.json',
    'GET /api/v1/admin/programs/:id/partners/:partner_id/statements/:month',
    'GET /.well-known/svc-ledger-key',
    'svc verify',
  ])
    expect(doc).toContain(phrase)
  for (const field of Object.keys(statement)) expect(doc).toContain(`\`${field}\``)
  for (const field of Object.keys(statement.entries[0]!)) expect(doc).toContain(`\`${field}\``)
})
