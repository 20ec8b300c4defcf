// Verifiable statements (docs/decisions.md, Verifiable statements; docs/ledger.md): the chain,
// the signed statements of the operator API and the portal, the key route, and `svc verify`
// catching what a dishonest operator does to the database between two statements.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { forgedFrom } from './forged-statement.ts'
import { generateKeyPairSync, sign } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Statement, statementText, verifyStatement } from '../../../src/domain/statement.ts'
import { days, type Api, type Fixture } from '../../helpers.ts'
import { runCli, tempHome } from '../../cli/run-cli.ts'
import { followLink } from '../pages/sessions.ts'
import { trackingSetup, type Kit, unique } from '../track/kit.ts'

let api: Api, k: Kit, dir: string
const home = tempHome()
beforeAll(async () => {
  ;({ api, k } = await trackingSetup())
  dir = mkdtempSync(join(tmpdir(), 'svc-statements-'))
})
afterAll(async () => {
  await api.stop()
  rmSync(dir, { recursive: true, force: true })
  home.cleanup()
})

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7)
const statementOf = async (f: Fixture, m: string): Promise<Statement> => {
  const reply = await api.admin('GET', `/programs/${f.programId}/partners/${f.partnerId}/statements/${m}`)
  expect(reply.status).toBe(200)
  return reply.body.data
}
/** Writes a statement (or any JSON) to a file and runs `svc verify` on it, with --previous when given. */
let files = 0
const save = (value: unknown) => {
  const path = join(dir, `statement-${++files}.json`)
  writeFileSync(path, JSON.stringify(value))
  return path
}
const verify = (statement: unknown, previous?: unknown) =>
  runCli(['verify', save(statement), ...(previous === undefined ? [] : ['--previous', save(previous)])], home.env)
const db = () => api.server.deps.database.client

/** A program (recurring_percent 10: every sale earns) whose partner earned on `sales` sales of 100.00 this month. */
async function partnerWithSales(sales: number) {
  const f = await api.setupProgram({ commission_type: 'recurring_percent', commission_rate: 10, holding_period_days: 0 })
  const customerKey = unique('cust')
  await k.customer(f, customerKey)
  const ids: string[] = []
  for (let i = 0; i < sales; i++) {
    const transactionId = unique('txn')
    const reply = await k.sale(f, { transaction_id: transactionId, customer_key: customerKey, amount_cents: 10_000 + i })
    expect(reply.status).toBe(200)
    ids.push(transactionId)
    api.clock.advance(1000)
  }
  return { f, ids }
}
const commissionIds = (f: Fixture) =>
  (db().prepare('SELECT id FROM commissions WHERE partner_id = ? ORDER BY id').all(f.partnerId) as { id: number }[]).map((r) => r.id)

describe('statements', () => {
  test('the operator API answers a signed statement in the envelope: every entry with its amount and hash, and it verifies', async () => {
    const { f, ids } = await partnerWithSales(2)
    await k.refund(f, { transaction_id: ids[0] })
    const s = await statementOf(f, month(api.clock.now()))
    expect(s).toMatchObject({ version: 1, program_id: f.programId, partner_id: f.partnerId, month: month(api.clock.now()), count: 3 })
    expect(s.entries.map((e) => [e.seq, e.kind, e.amount_cents, e.currency])).toEqual([
      [1, 'commission', 1000, 'USD'],
      [2, 'commission', 1000, 'USD'],
      [3, 'reversal', -1000, 'USD'],
    ])
    expect(s.head).toBe(s.entries[2]!.hash)
    expect(s.public_key).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) })
    expect(s.signature).toMatch(/^[A-Za-z0-9+/]{86}==$/)
    expect(await verifyStatement(s)).toEqual({ ok: true, entries: 3, head: s.head })
    const cli = await verify({ data: s, error: null })
    expect(cli.stderr).toBe('warning: signing key not checked (pass --key <base_url>/.well-known/svc-ledger-key)\n')
    expect(cli.code).toBe(0)
    expect(cli.stdout).toContain('Verified: 3 entries')
    const checked = await runCli(['verify', save(s), '--key', `${api.url}/.well-known/svc-ledger-key`], home.env)
    expect({ code: checked.code, stderr: checked.stderr }).toEqual({ code: 0, stderr: '' })
  })

  test('GET /.well-known/svc-ledger-key answers the JWK every statement carries', async () => {
    const { f } = await partnerWithSales(1)
    const reply = await fetch(`${api.url}/.well-known/svc-ledger-key`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toContain('application/json')
    expect(await reply.json()).toEqual((await statementOf(f, month(api.clock.now()))).public_key)
  })

  test('payouts and their cancellation are entries too; a past month stops at its end and verifies later unchanged', async () => {
    const { f } = await partnerWithSales(1)
    const june = month(api.clock.now())
    const run = await api.admin('POST', `/programs/${f.programId}/payouts`)
    expect(run.status).toBe(201)
    const payoutId = run.body.data[0].payout_id
    expect((await api.admin('POST', `/payouts/${payoutId}/cancel`)).status).toBe(200)
    const s = await statementOf(f, june)
    expect(s.entries.map((e) => [e.kind, e.amount_cents])).toEqual([
      ['commission', 1000],
      ['payout', -1000],
      ['payout_canceled', 1000],
    ])
    api.clock.advance(days(40))
    const later = await partnerWithSalesFor(f)
    const juneAgain = await statementOf(f, june)
    expect(juneAgain.entries).toEqual(s.entries)
    const next = await statementOf(f, month(api.clock.now()))
    expect(next.count).toBe(4)
    expect(next.entries.at(-1)).toMatchObject({ kind: 'commission', entry_id: later })
    expect((await verify(next, s)).code).toBe(0)
  })

  test('400 for a month that is not YYYY-MM or is in the future, 404 for an unknown partner', async () => {
    const { f } = await partnerWithSales(0)
    for (const bad of ['2026-13', '2026-1', '26-06', 'june', '2026-06-01', '0050-01', '1969-12']) {
      const reply = await api.admin('GET', `/programs/${f.programId}/partners/${f.partnerId}/statements/${bad}`)
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual({
        data: null,
        error: { status: 400, name: 'BadRequestError', message: 'month must be a month such as 2026-11 (YYYY-MM)', details: {} },
      })
    }
    const future = await api.admin('GET', `/programs/${f.programId}/partners/${f.partnerId}/statements/2999-01`)
    expect(future.status).toBe(400)
    expect(future.body.error.message).toBe('month must not be in the future')
    const other = await api.setupProgram()
    const unknown = await api.admin('GET', `/programs/${f.programId}/partners/${other.partnerId}/statements/2026-06`)
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.message).toBe('Partner not found')
    // A partner with no entries has an empty statement that verifies (the head is the genesis).
    const empty = await statementOf(f, month(api.clock.now()))
    expect(empty).toMatchObject({ count: 0, entries: [], head: '0'.repeat(64) })
    expect((await verifyStatement(empty)).ok).toBe(true)
  })

  test("the portal links the partner's statements and serves them bare; signed out it sends to sign-in", async () => {
    const { f } = await partnerWithSales(1)
    const link = (await api.admin('POST', `/programs/${f.programId}/partners/${f.partnerId}/portal-link`)).body.data.url
    const cookie = (await followLink(api, link)).headers.get('set-cookie')!.split(';')[0]!
    const m = month(api.clock.now())
    const portal = await (await fetch(`${api.url}/partner`, { headers: { cookie } })).text()
    expect(portal).toContain(`href="/partner/statements/${m}.json"`)
    const reply = await fetch(`${api.url}/partner/statements/${m}.json`, { headers: { cookie } })
    expect(reply.status).toBe(200)
    const bare = (await reply.json()) as Statement
    expect(bare).toMatchObject({ partner_id: f.partnerId, count: 1 })
    expect((await verify(bare)).code).toBe(0)
    expect((await fetch(`${api.url}/partner/statements/2026-13.json`, { headers: { cookie } })).status).toBe(400)
    expect((await fetch(`${api.url}/partner/statements/${m}.json`, { redirect: 'manual' })).headers.get('location')).toBe(
      '/partner/sign-in',
    )
  })
})

/** One more sale for the fixture's partner now; answers its commission entry's id. */
async function partnerWithSalesFor(f: Fixture): Promise<number> {
  const customerKey = unique('cust')
  await k.customer(f, customerKey)
  expect((await k.sale(f, { transaction_id: unique('txn'), customer_key: customerKey, amount_cents: 5000 })).status).toBe(200)
  return commissionIds(f).at(-1)!
}

describe('svc verify catches a dishonest operator', () => {
  test('an amount edited in the database: the next statement names the entry, alone and against the earlier one', async () => {
    const { f } = await partnerWithSales(3)
    const before = await statementOf(f, month(api.clock.now()))
    const [, second] = commissionIds(f)
    db().prepare('UPDATE commissions SET amount_cents = 1 WHERE id = ?').run(second!)
    const after = await statementOf(f, month(api.clock.now()))
    const alone = await verify(after)
    expect(alone.code).toBe(1)
    expect(alone.stderr).toContain(`entry 2 (commission ${second}) does not match its hash`)
    expect((await verify(after, before)).code).toBe(1)
    // The server serves what is stored and logs the break (never repairs or hides it).
    expect(api.warnings.some((w) => w.msg === 'ledger chain broken: a stored entry no longer matches its hash')).toBe(true)
  })

  test('a live commission turned into test data (never paid) no longer matches its hash', async () => {
    const { f } = await partnerWithSales(2)
    const before = await statementOf(f, month(api.clock.now()))
    const [first] = commissionIds(f)
    db().prepare('UPDATE commissions SET test_mode = 1 WHERE id = ?').run(first!)
    const after = await verify(await statementOf(f, month(api.clock.now())), before)
    expect(after.code).toBe(1)
    expect(after.stderr).toContain(`entry 1 (commission ${first}) does not match its hash`)
  })

  test('an entry deleted: the entries after it are out of place', async () => {
    const { f } = await partnerWithSales(3)
    const before = await statementOf(f, month(api.clock.now()))
    const [, second] = commissionIds(f)
    db().exec('PRAGMA foreign_keys = OFF')
    db().prepare('DELETE FROM commissions WHERE id = ?').run(second!)
    db().exec('PRAGMA foreign_keys = ON')
    const after = await verify(await statementOf(f, month(api.clock.now())), before)
    expect(after.code).toBe(1)
    expect(after.stderr).toContain('entry 3 (commission')
    expect(after.stderr).toContain('out of place')
  })

  test('an entry deleted and the chain rebuilt and re-signed: the statement verifies alone, and --previous names what changed', async () => {
    const { f } = await partnerWithSales(3)
    const before = await statementOf(f, month(api.clock.now()))
    const [, second] = commissionIds(f)
    rebuild(f, () => db().prepare('DELETE FROM commissions WHERE id = ?').run(second!))
    const after = await statementOf(f, month(api.clock.now()))
    expect(after.count).toBe(2)
    expect((await verify(after)).code).toBe(0)
    const compared = await verify(after, before)
    expect(compared.code).toBe(1)
    expect(compared.stderr).toContain(`entry 2 (commission ${second}) differs from the earlier statement`)
  })

  test('an entry inserted in the past: linked at the end, --previous names it as dated before the earlier statement', async () => {
    const { f } = await partnerWithSales(2)
    api.clock.advance(120_000)
    const before = await statementOf(f, month(api.clock.now()))
    const [first] = commissionIds(f)
    const at = (db().prepare('SELECT created_at AS at FROM commissions WHERE id = ?').get(first!) as { at: number }).at
    rebuild(f, () =>
      db()
        .prepare(
          `INSERT INTO commissions (program_id, sale_id, partner_id, kind, amount_cents, currency, test_mode, created_at)
           SELECT program_id, sale_id, partner_id, 'reversal', -amount_cents, currency, test_mode, ? FROM commissions WHERE id = ?`,
        )
        .run(at + 1, first!),
    )
    const after = await statementOf(f, month(api.clock.now()))
    expect(after.entries.map((e) => e.kind)).toEqual(['commission', 'commission', 'reversal'])
    expect((await verify(after)).code).toBe(0)
    const compared = await verify(after, before)
    expect(compared.code).toBe(1)
    expect(compared.stderr).toContain(
      `entry 3 (reversal ${after.entries[2]!.entry_id}) is dated before the earlier statement was made but is not in it`,
    )
    // Put in its place by date and every link after it rehashed, it changes the entry there instead.
    const moved = structuredClone(after)
    ;[moved.entries[1], moved.entries[2]] = [moved.entries[2]!, moved.entries[1]!]
    const movedCheck = await verify(moved, before)
    expect(movedCheck.code).toBe(1)
  })

  test('a statement re-signed with another key, or edited in the file, is refused; an unedited pair passes', async () => {
    const { f } = await partnerWithSales(2)
    const before = await statementOf(f, month(api.clock.now()))
    await partnerWithSalesFor(f)
    const after = await statementOf(f, month(api.clock.now()))
    expect((await verify(after, before)).code).toBe(0)

    const other = generateKeyPairSync('ed25519')
    const x = (other.publicKey.export({ format: 'jwk' }) as { x: string }).x
    const resigned = {
      ...after,
      public_key: { kty: 'OKP', crv: 'Ed25519', x },
      signature: sign(null, Buffer.from(statementText(after)), other.privateKey).toString('base64'),
    }
    expect((await verify(resigned)).code).toBe(0)
    const keys = await verify(resigned, before)
    expect(keys.code).toBe(1)
    expect(keys.stderr).toContain('the statements are signed with different keys')

    const forged = await verify({ ...after, signature: resigned.signature })
    expect(forged.code).toBe(1)
    expect(forged.stderr).toContain('the signature does not verify')

    const edited = structuredClone(after)
    edited.entries[0]!.amount_cents = 999_999
    const caught = await verify(edited)
    expect(caught.code).toBe(1)
    expect(caught.stderr).toContain(`entry 1 (commission ${edited.entries[0]!.entry_id}) does not match its hash`)

    const cut = await verify({ ...after, entries: after.entries.slice(0, 1) })
    expect(cut.code).toBe(1)
    expect(cut.stderr).toContain('the head or count does not match the entries')
  })

  test('a made-up 1,000,000 USD statement signed with a fresh key verifies alone with a warning, and is refused with --key', async () => {
    const { f } = await partnerWithSales(1)
    const real = await statementOf(f, month(api.clock.now()))
    const forged = forgedFrom(real)
    const alone = await verify(forged)
    expect(alone.code).toBe(0)
    expect(alone.stderr).toContain('warning: signing key not checked')
    const byUrl = await runCli(['verify', save(forged), '--key', `${api.url}/.well-known/svc-ledger-key`], home.env)
    expect(byUrl.code).toBe(1)
    expect(byUrl.stderr).toContain('signed by another key')
    const keyFile = save(await (await fetch(`${api.url}/.well-known/svc-ledger-key`)).json())
    const byFile = await runCli(['verify', save(forged), '--key', keyFile], home.env)
    expect(byFile.code).toBe(1)
    expect(byFile.stderr).toContain('signed by another key')
    expect((await runCli(['verify', save(real), '--key', keyFile], home.env)).code).toBe(0)
    const notKey = await runCli(['verify', save(real), '--key', save({ hello: 1 })], home.env)
    expect(notKey.code).toBe(2)
    expect(notKey.stderr).toContain('is not an Ed25519 key')
  })

  test('svc verify: a file that is not a statement is a usage error (exit 2); --json prints the verdict', async () => {
    const missing = await runCli(['verify', join(dir, 'nope.json')], home.env)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('cannot read')
    const notStatement = await runCli(['verify', save({ hello: 1 })], home.env)
    expect(notStatement.code).toBe(2)
    expect(notStatement.stderr).toContain('is not a statement')
    expect((await runCli(['verify'], home.env)).code).toBe(2)
    // Fields missing or of another type: a verdict naming the place, never a crash.
    const { f: g } = await partnerWithSales(1)
    const good = await statementOf(g, month(api.clock.now()))
    for (const broken of [
      { ...good, entries: [null] },
      { ...good, entries: [{ ...good.entries[0], created_at: null }] },
      { ...good, entries: [{ ...good.entries[0], amount_cents: '1000' }] },
      { ...good, made_at: 'yesterday' },
    ]) {
      const reply = await verify(broken)
      expect(reply.code).toBe(1)
      expect(reply.stderr).toContain('the statement is malformed')
    }
    const { f } = await partnerWithSales(1)
    const s = await statementOf(f, month(api.clock.now()))
    const json = await runCli(['verify', save(s), '--json'], home.env)
    expect(JSON.parse(json.stdout)).toEqual({ data: { verified: true, entries: 1, head: s.head, key_checked: false }, error: null })
  })
})

/**
 * What an operator who knows the scheme does: changes the ledger, then drops the partner's links
 * and links every entry again (as the first start after migration 0016 does), so that the new
 * chain is consistent with itself and the server signs it.
 */
function rebuild(f: Fixture, change: () => unknown) {
  db().exec('PRAGMA foreign_keys = OFF')
  change()
  db().prepare('UPDATE commissions SET chain_seq = NULL, chain_hash = NULL WHERE partner_id = ?').run(f.partnerId)
  db()
    .prepare('UPDATE payouts SET chain_seq = NULL, chain_hash = NULL, cancel_seq = NULL, cancel_hash = NULL WHERE partner_id = ?')
    .run(f.partnerId)
  db().exec('PRAGMA foreign_keys = ON')
  api.server.deps.database.stores.chain.backfill()
}
