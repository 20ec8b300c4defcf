// The webhook outbox (src/outbox/README.md, issue 35): a change's unit writes each event alone, with
// the endpoints subscribed to it then; the deliveries are written after the commit, in bulk, by the
// pool or by a read that lists them. Nothing is lost between the two: an event committed is a
// pending delivery as soon as anyone looks, whatever the chunk size, exactly once per endpoint.
import { describe, expect, test } from 'bun:test'
import type { TrackingDeps } from '../../src/tracking/deps.ts'
import { catchUpDeliveries } from '../../src/tracking/webhook-endpoints.ts'
import { ManualClock } from '../clocks.ts'
import { NOW, seedProgram, tempDatabase } from './temp-database.ts'

const db = tempDatabase()

/** A program with two endpoints. */
const program = () =>
  seedProgram(db(), ({ programId }) => {
    const endpoint = (url: string) =>
      db().stores.webhooks.create({ programId, url, events: ['sale.created'], description: null, secret: 'whsec_x', now: NOW }).id
    return { a: endpoint('https://a.test/h'), b: endpoint('https://b.test/h') }
  })

const deliveries = () =>
  db()
    .client.prepare(
      'SELECT endpoint_id AS endpoint, event_id AS event, status, next_attempt_at AS due, last_error AS error FROM webhook_deliveries ORDER BY id',
    )
    .all() as { endpoint: number; event: number; status: string; due: number; error: string | null }[]

const record = (programId: number, endpoints: number[], count: number, at = NOW) =>
  db().writer.run(() => {
    for (let i = 0; i < count; i++) db().stores.webhooks.recordEvent(programId, 'sale.created', { body: `{"n":${i}}` }, endpoints, at + i)
  })

describe("an event's deliveries", () => {
  test("are not written in the change's unit: its one row names the endpoints subscribed then", async () => {
    const { programId, a, b } = await program()
    await record(programId, [a, b], 1)
    expect(deliveries()).toEqual([])
    const event = db().client.prepare('SELECT id, endpoints, body FROM webhook_events').get() as {
      id: number
      endpoints: string
      body: string
    }
    expect(JSON.parse(event.endpoints)).toEqual([a, b])
    expect(db().stores.webhooks.progress()).toEqual({ last: event.id, written: 0 })
  })

  test('are written after the commit in chunks, each event once per endpoint, due at its time, none skipped', async () => {
    const { programId, a, b } = await program()
    await record(programId, [a, b], 5)
    const { webhooks } = db().stores
    expect(await db().writer.run(() => webhooks.writeDeliveries(2))).toBe(true)
    expect(deliveries()).toHaveLength(4)
    await record(programId, [a], 2, NOW + 100)
    while (await db().writer.run(() => webhooks.writeDeliveries(2)));
    const rows = deliveries()
    expect(rows).toHaveLength(12)
    expect(new Set(rows.map((r) => `${r.event}:${r.endpoint}`)).size).toBe(12)
    expect(rows.every((r) => r.status === 'pending' && r.error === null)).toBe(true)
    expect(rows.map((r) => r.due)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 100, 101].map((d) => NOW + d))
    // Written again from the start: nothing doubles.
    db().client.prepare("UPDATE settings SET value = '0' WHERE key = 'webhook_deliveries_written'").run()
    while (await db().writer.run(() => webhooks.writeDeliveries(100)));
    expect(deliveries()).toHaveLength(12)
    expect(await db().writer.run(() => webhooks.writeDeliveries(100))).toBe(false)
  })

  test('to an endpoint deleted since the event are written failed, never attempted', async () => {
    const { programId, a, b } = await program()
    await record(programId, [a, b], 1)
    await db().writer.run(() => db().stores.webhooks.remove(b, NOW + 1))
    await db().writer.run(() => db().stores.webhooks.writeDeliveries(10))
    expect(deliveries().map((r) => [r.endpoint, r.status, r.error])).toEqual([
      [a, 'pending', null],
      [b, 'failed', 'endpoint deleted'],
    ])
    expect(
      db()
        .stores.webhooks.dueEndpoints(NOW + 10)
        .map((e) => e.id),
    ).toEqual([a])
  })

  test('are all written before a list is read (catchUpDeliveries), and the test delivery written with its event is kept', async () => {
    const { programId, a } = await program()
    await record(programId, [a], 2_500)
    const test = await db().writer.run(() =>
      db().stores.webhooks.recordHeldEvent(programId, 'webhook.test', '{}', a, NOW + 5_000, NOW + 15_000),
    )
    await record(programId, [a], 3, NOW + 6_000)
    const deps = { database: db(), clock: new ManualClock(NOW) } as unknown as TrackingDeps
    await catchUpDeliveries(deps)
    expect(deliveries()).toHaveLength(2_504)
    expect(db().stores.webhooks.listedDelivery(test)).toMatchObject({
      type: 'webhook.test',
      status: 'pending',
      nextAttemptAt: NOW + 15_000,
    })
    const { last, written } = db().stores.webhooks.progress()
    expect(written).toBe(last)
  })
})

test("an event's id is evt_, its time in 12 hex digits and 14 random base64url characters, never repeated", async () => {
  const { programId, a } = await program()
  // More than one draw of random characters (4 KB), many events in the same millisecond.
  await db().writer.run(() => {
    for (let i = 0; i < 1_000; i++)
      db().stores.webhooks.recordEvent(programId, 'sale.created', { body: '{}' }, [a], NOW + Math.floor(i / 100))
  })
  const ids = (
    db().client.prepare('SELECT event_id AS id, created_at AS at FROM webhook_events').all() as { id: string; at: number }[]
  ).map(({ id, at }) => {
    expect(id).toMatch(/^evt_[0-9a-f]{12}[A-Za-z0-9_-]{14}$/)
    expect(Number.parseInt(id.slice(4, 16), 16)).toBe(at)
    return id.slice(16)
  })
  expect(ids).toHaveLength(1_000)
  expect(new Set(ids).size).toBe(1_000)
  // Row ids without AUTOINCREMENT (src/db/tables/outbox.ts): nothing written to sqlite_sequence per event.
  expect(db().client.prepare("SELECT count(*) AS n FROM sqlite_sequence WHERE name = 'webhook_events'").get()).toEqual({ n: 0 })
})
