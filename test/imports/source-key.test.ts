// L2 of the review of issue 38: the source key is sealed with the server's secret before it is
// written, so the database file and its WAL never hold it in plain text, and it is deleted as soon
// as the read phase ends (the write phase does not need it).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openSourceKey } from '../../src/imports/key.ts'
import { type Api, startApi } from '../helpers.ts'
import { seedRewardful, startFakeRewardful } from './fake-rewardful.ts'

let api: Api
beforeAll(async () => {
  api = await startApi({ env: { ALLOW_PRIVATE_URLS: 'true' } })
})
afterAll(() => api.stop())

/** Whether any of the database's files holds `text`. */
const onDisk = (text: string) =>
  ['svc.db', 'svc.db-wal', 'svc.db-shm']
    .map((name) => join(api.dir, name))
    .filter(existsSync)
    .some((file) => readFileSync(file).includes(Buffer.from(text)))

test('the source key is never written in plain text, and is gone once the read phase ends', async () => {
  const secret = `sk_rewardful_${crypto.randomUUID()}`
  const fake = startFakeRewardful(secret)
  seedRewardful(fake)
  const held = fake.hold('/commissions', 1)
  try {
    const { programId } = await api.setupProgram()
    const started = await api.admin('POST', `/programs/${programId}/imports`, { source: 'rewardful', api_key: secret, base_url: fake.url })
    await held.reached
    // While it reads, the column holds the key sealed, which only the server's secret opens.
    const { database } = api.server.deps
    const running = database.stores.imports.find(started.body.data.import_id)!
    expect(running.apiKey).not.toContain(secret)
    expect(openSourceKey(api.server.deps.secret, running.apiKey!)).toBe(secret)
    expect(openSourceKey('another-secret-0123456789abcdef', running.apiKey!)).toBeNull()
    expect(onDisk(secret)).toBe(false)
    held.release()
    for (let i = 0; i < 400; i++) {
      if (database.stores.imports.find(running.id)!.status === 'done') break
      await Bun.sleep(25)
    }
    expect(database.stores.imports.find(running.id)).toMatchObject({ status: 'done', apiKey: null })
    expect(onDisk(secret)).toBe(false)
  } finally {
    held.release()
    fake.stop()
  }
})

test('the read phase ending deletes the key: the write phase runs without it', async () => {
  const { programId } = await api.setupProgram()
  const { database } = api.server.deps
  const job = await database.writer.run(() =>
    database.stores.imports.create({
      programId,
      source: 'rewardful',
      apiKey: 'v1.sealed',
      dryRun: true,
      options: {},
      now: api.clock.now(),
    }),
  )
  await database.writer.run(() => database.stores.imports.startWriting(job.id))
  expect(database.stores.imports.find(job.id)).toMatchObject({ phase: 'write', apiKey: null })
})
