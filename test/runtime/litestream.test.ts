import { expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { restoreDrill } from '../../drills/restore.ts'
import { ADMIN_TOKEN } from '../helpers.ts'
import { spawnServer } from './spawn.ts'

const root = join(import.meta.dir, '../..')
const litestream = join(root, 'node_modules/@flydotio/litestream-linux-x64/litestream')
const entrypoint = join(root, 'deploy/entrypoint.sh')
// The package ships Litestream for linux x64 only: elsewhere these tests cannot run, and say so.
const linuxX64 = process.platform === 'linux' && process.arch === 'x64'
const skip = !linuxX64 && !existsSync(litestream)
if (skip)
  console.warn(
    `skipping the Litestream tests: ${litestream} is absent (the @flydotio/litestream-linux-x64 package is linux x64 only; this is ${process.platform} ${process.arch})`,
  )

test.skipIf(skip)(
  'restores from an S3-compatible store configured through LITESTREAM_* alone: every count and sum, the old key, and a replayed sale answering 409',
  async () => {
    const result = await restoreDrill({ sales: 2_000, refundEvery: 5 })
    expect(result.firstExit).toBe(0)
    expect(result.before).toMatchObject({
      sales: 2_000,
      commissions: 2_000,
      reversals: 400,
      refunds: 400,
      chargebacks: 200,
      customers: 40,
      clicks: 40,
    })
    expect(result.after).toEqual(result.before)
    expect(result.oldKeyStatus).toBe(200)
    expect(result.replayStatus).toBe(409)
    // Bounded inside (start 30 s, stop 20 s, replica 10 s), each naming its step and log when it
    // fails; a stop that hangs names the processes still running (docs/testing.md, Litestream).
  },
  90_000,
)

test.skipIf(skip)(
  'a lost database file is restored from a file:// replica at the next start',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-litestream-'))
    const env = {
      DATABASE_PATH: join(dir, 'data/svc.db'),
      LITESTREAM_REPLICA_URL: `file://${join(dir, 'replica')}`,
      LITESTREAM_BIN: litestream,
      LITESTREAM_CONFIG: join(root, 'db/litestream.yml'),
      SVC_SERVER_CMD: `${process.execPath} src/main.ts`,
    }
    const admin = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}/api/v1/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      })

    const first = await spawnServer(['sh', entrypoint], env)
    const account = await (await admin(first.url, 'POST', '/accounts', { email: 'backup@shop.test' })).json()
    const program = await (
      await admin(first.url, 'POST', '/programs', {
        account_id: account.data.account_id,
        name: 'Backed up',
        domain: 'shop.test',
        commission_type: 'fixed',
        commission_rate: 5,
      })
    ).json()
    // Litestream starts replicating at its first sync (1 s); a stop after that ends with a last sync.
    await Bun.sleep(2_500)
    expect(await first.stop()).toBe(0)

    rmSync(join(dir, 'data'), { recursive: true, force: true })
    const second = await spawnServer(['sh', entrypoint], env)
    const restored = await (await admin(second.url, 'GET', `/programs/${program.data.program_id}`)).json()
    await second.stop()
    rmSync(dir, { recursive: true, force: true })
    expect(restored.data).toEqual([expect.objectContaining({ name: 'Backed up', commission_type: 'fixed' })])
  },
  30_000,
)

/** Runs the entrypoint with `env` until it exits; its code and stderr. */
async function entrypointRefuses(env: Record<string, string>) {
  const child = Bun.spawn(['sh', entrypoint], {
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      ...process.env,
      DATABASE_PATH: join(tmpdir(), 'svc-never-created/svc.db'),
      LITESTREAM_BIN: litestream,
      SVC_SERVER_CMD: 'false',
      ...env,
    },
  })
  return { code: await child.exited, stderr: await new Response(child.stderr).text() }
}

test.each([
  [
    { LITESTREAM_REPLICA_URL: 's3://bucket/svc?endpoint=fly.storage.tigris.dev&region=auto' },
    'LITESTREAM_REPLICA_URL must not carry a query (Litestream 0.3.13 ignores it): set LITESTREAM_ENDPOINT and LITESTREAM_REGION instead',
  ],
  [{ LITESTREAM_REPLICA_URL: 'bucket/svc' }, 'LITESTREAM_REPLICA_URL must be s3://BUCKET/PATH or file:///PATH, got "bucket/svc"'],
  [
    { LITESTREAM_REPLICA_URL: 's3://bucket/svc', LITESTREAM_FORCE_PATH_STYLE: 'yes' },
    'LITESTREAM_FORCE_PATH_STYLE must be true or false, got "yes"',
  ],
  [
    { LITESTREAM_REPLICA_URL: 's3://bucket/svc', LITESTREAM_ENDPOINT: 'fly.storage.tigris.dev' },
    'LITESTREAM_ENDPOINT must be an http:// or https:// URL, got "fly.storage.tigris.dev"',
  ],
])('the entrypoint refuses %j before starting anything (exit 2, the setting named)', async (env, message) => {
  const { code, stderr } = await entrypointRefuses(env)
  expect(code).toBe(2)
  expect(stderr).toBe(`svc: configuration error: ${message}\n`)
})
