import { expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN } from '../helpers'
import { spawnServer } from './spawn'

const root = join(import.meta.dir, '../..')
const litestream = join(root, 'node_modules/@flydotio/litestream-linux-x64/litestream')

test.skipIf(!existsSync(litestream))('a lost database file is restored from the Litestream replica at the next start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-litestream-'))
  const env = {
    DATABASE_PATH: join(dir, 'data/svc.db'),
    LITESTREAM_REPLICA_URL: `file://${join(dir, 'replica')}`,
    LITESTREAM_BIN: litestream,
    LITESTREAM_CONFIG: join(root, 'db/litestream.yml'),
    SVC_SERVER_CMD: `${process.execPath} src/main.ts`,
  }
  const admin = (url: string, method: string, path: string, body?: unknown) =>
    fetch(`${url}/api/v1/admin${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })

  const first = await spawnServer(['sh', join(root, 'deploy/entrypoint.sh')], env)
  const account = await (await admin(first.url, 'POST', '/accounts', { email: 'backup@shop.test' })).json()
  const program = await (await admin(first.url, 'POST', '/programs', {
    account_id: account.data.account_id, name: 'Backed up', domain: 'shop.test', commission_type: 'fixed', commission_rate: 5,
  })).json()
  await Bun.sleep(2_500) // sync-interval is 1 s
  expect(await first.stop()).toBe(0)

  rmSync(join(dir, 'data'), { recursive: true, force: true })
  const second = await spawnServer(['sh', join(root, 'deploy/entrypoint.sh')], env)
  const restored = await (await admin(second.url, 'GET', `/programs/${program.data.program_id}`)).json()
  await second.stop()
  rmSync(dir, { recursive: true, force: true })
  expect(restored.data).toEqual([expect.objectContaining({ name: 'Backed up', commission_type: 'fixed' })])
}, 30_000)
