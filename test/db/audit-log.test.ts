// docs/decisions.md, Teams and the audit log: the audit log is append-only (the database itself
// refuses UPDATE and DELETE), and an entry written in a writer unit commits or rolls back with the
// change of that unit.
import { Database as Sqlite } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { migrate } from '../../src/db/migrate.ts'
import { migrations } from '../../src/db/migrations.gen.ts'
import { NOW, seedProgram, tempDatabase } from './temp-database.ts'

const db = tempDatabase()

const by = { actor: 'ada@shop.test', ip: '203.0.113.7' }

const program = () => seedProgram(db(), () => ({}))

const rows = () => db().client.prepare('SELECT count(*) AS n FROM audit_log').get() as { n: number }

describe('the audit log', () => {
  test('an account is made with its owner member', async () => {
    const { accountId } = await program()
    expect(
      db()
        .stores.members.listMembers(accountId)
        .map((m) => [m.email, m.role]),
    ).toEqual([['o@shop.test', 'owner']])
  })

  test('an entry is written with its account, program, actor, IP and details', async () => {
    const { accountId, programId } = await program()
    await db().writer.run(() =>
      db().stores.audit.write(by, NOW, {
        program: programId,
        action: 'payout.paid',
        object: ['payout', 7],
        details: { reference: 'r1' },
      }),
    )
    const [entry] = db().stores.audit.listForProgram(programId, accountId, { limit: 10 })
    expect(entry).toMatchObject({
      at: NOW,
      accountId,
      programId,
      actor: 'ada@shop.test',
      action: 'payout.paid',
      objectType: 'payout',
      objectId: '7',
      ip: '203.0.113.7',
      details: '{"reference":"r1"}',
    })
  })

  test('the database refuses to update or delete an entry', async () => {
    const { programId } = await program()
    await db().writer.run(() =>
      db().stores.audit.write(by, NOW, { program: programId, action: 'key.regenerate', object: ['program', programId] }),
    )
    expect(() => db().client.exec("UPDATE audit_log SET actor = 'someone else'")).toThrow(/append-only/)
    expect(() => db().client.exec('DELETE FROM audit_log')).toThrow(/append-only/)
    expect(rows().n).toBe(1)
    expect((db().client.prepare('SELECT actor FROM audit_log').get() as { actor: string }).actor).toBe('ada@shop.test')
  })

  test('a unit that fails after writing its entry leaves neither the change nor the entry', async () => {
    const { programId } = await program()
    const failed = db().writer.run(() => {
      db().stores.programs.updateProgram(programId, { name: 'Renamed' })
      db().stores.audit.write(by, NOW, { program: programId, action: 'settings.update', object: ['program', programId] })
      throw new Error('the use case changed its mind')
    })
    await expect(failed).rejects.toThrow('changed its mind')
    expect(rows().n).toBe(0)
    expect(db().stores.programs.findProgram(programId)?.name).toBe('Shop')
  })

  test("a program's log lists its account's member events too, not another program's entries", async () => {
    const a = await program()
    const b = await program()
    await db().writer.run(() => {
      db().stores.audit.write(by, NOW, { account: a.accountId, action: 'member.add', object: ['member', 1] })
      db().stores.audit.write(by, NOW + 1, { program: a.programId, action: 'payout.run', object: ['payout', 1] })
      db().stores.audit.write(by, NOW + 2, { program: b.programId, action: 'payout.run', object: ['payout', 2] })
    })
    const listed = db().stores.audit.listForProgram(a.programId, a.accountId, { limit: 10 })
    expect(listed.map((e) => e.action)).toEqual(['payout.run', 'member.add'])
  })
})

test('a database in use gets an owner member for each of its accounts when the members migration runs', () => {
  const db = new Sqlite(':memory:')
  const client = db as unknown as Parameters<typeof migrate>[0]
  const at = migrations.findIndex((m) => m.tag.endsWith('_members_audit'))
  expect(at).toBeGreaterThan(0)
  migrate(client, migrations.slice(0, at), null)
  db.exec(`INSERT INTO accounts (id, email, email_key, created_at) VALUES (1, 'Ada@Shop.test', 'ada@shop.test', 5);
    INSERT INTO accounts (id, email, created_at) VALUES (2, 'old@shop.test', 6);`)
  migrate(client, migrations, null)
  expect(db.prepare('SELECT account_id, email, email_key, role, created_at FROM members ORDER BY account_id').all()).toEqual([
    { account_id: 1, email: 'Ada@Shop.test', email_key: 'ada@shop.test', role: 'owner', created_at: 5 },
    { account_id: 2, email: 'old@shop.test', email_key: 'old@shop.test', role: 'owner', created_at: 6 },
  ])
  db.close()
})
