/**
 * Storage figures for docs/scaling.md (issue 10): `bun bench/storage.ts` (never run by npm test).
 *
 * 1. bytes per million clicks: BENCH_CLICKS (1,000,000) click rows as the service writes them
 *    (ids sealing their row, src/domain/click-id.ts; an IPv4 address, a 110-character user agent), file size after a
 *    TRUNCATE checkpoint, indexes included;
 * 2. checkpoint time per GB: the same rows' WAL (autocheckpoint off, synchronous=FULL) copied
 *    into the database by one `PRAGMA wal_checkpoint(TRUNCATE)`;
 * 3. restore time per GB: Litestream replicates the file to a local S3 server (s3rver on
 *    127.0.0.1, so no network cost is in it), then `litestream restore` into a new file.
 */
import { Database } from 'bun:sqlite'
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { replicaStarted } from '../drills/restore.ts'
import { LITESTREAM, ROOT } from '../drills/lib.ts'
import { openDatabase } from '../src/db/open.ts'
import { ClickIds } from '../src/domain/click-id.ts'
import { bunRuntime } from '../src/runtime/bun.ts'
import { startLocalS3 } from '../test/runtime/s3.ts'

const CLICKS = Number(process.env.BENCH_CLICKS ?? 1_000_000)
const dir = mkdtempSync(join(tmpdir(), 'svc-storage-'))
const path = join(dir, 'svc.db')
const size = (p: string) => {
  try {
    return statSync(p).size
  } catch {
    return 0
  }
}
const gb = (bytes: number) => bytes / 1024 ** 3

try {
  openDatabase(bunRuntime, path).close()
  const db = new Database(path)
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 0')
  const now = Date.now()
  db.exec(
    `INSERT INTO accounts (email, created_at) VALUES ('bench@shop.test', ${now}); INSERT INTO advertisers (account_id, created_at) VALUES (1, ${now})`,
  )
  db.exec(
    `INSERT INTO programs (advertiser_id, name, domain, commission_type, commission_rate, created_at) VALUES (1, 'P', 'shop.test', 'percent', 10, ${now})`,
  )
  db.exec(
    `INSERT INTO partners (program_id, name, created_at) VALUES (1, 'Partner', ${now}); INSERT INTO links (program_id, partner_id, short_link, created_at) VALUES (1, 1, 'l', ${now})`,
  )
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  const empty = size(path)
  const insert = db.prepare(
    'INSERT INTO clicks (id, click_id, program_id, link_id, partner_id, test_mode, ip, user_agent, created_at) VALUES (?, ?, 1, 1, 1, 0, ?, ?, ?)',
  )
  const ids = new ClickIds((db.query("SELECT value FROM settings WHERE key = 'click_id_key'").get() as { value: string }).value)
  const agent = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1'
  for (let from = 0; from < CLICKS; from += 2_000) {
    // Batches like the group-commit writer's.
    db.transaction(() => {
      for (let i = from; i < Math.min(CLICKS, from + 2_000); i++) {
        const at = now + i * 5
        insert.run(i + 1, ids.issue(i + 1), `203.0.${(i >> 8) & 255}.${i & 255}`, agent, at)
      }
    })()
  }
  const wal = size(`${path}-wal`)
  let t = performance.now()
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  const checkpointMs = performance.now() - t
  db.close()
  const bytes = size(path) - empty
  console.log(
    `clicks: ${CLICKS.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(0)} MB on disk with indexes: ${(((bytes / CLICKS) * 1e6) / 1e6).toFixed(0)} MB per million clicks (${(bytes / CLICKS).toFixed(0)} bytes each)`,
  )
  console.log(
    `checkpoint: ${(wal / 1e6).toFixed(0)} MB of WAL in ${(checkpointMs / 1000).toFixed(2)} s = ${(checkpointMs / 1000 / gb(wal)).toFixed(1)} s per GB of WAL`,
  )

  const s3 = await startLocalS3()
  try {
    const env = {
      ...process.env,
      ...s3.env('storage'),
      DATABASE_PATH: path,
      LITESTREAM_SYNC_INTERVAL: '1s',
      LITESTREAM_FORCE_PATH_STYLE: 'true',
    }
    const config = join(ROOT, 'db/litestream.yml')
    t = performance.now()
    const replicate = Bun.spawn([LITESTREAM, 'replicate', '-config', config], { env, stdout: 'ignore', stderr: 'ignore' })
    await replicaStarted(s3, 'storage/')
    const replicateMs = performance.now() - t
    replicate.kill('SIGTERM')
    await replicate.exited
    const target = join(dir, 'restored/svc.db')
    mkdirSync(join(dir, 'restored'))
    t = performance.now()
    const restore = Bun.spawn([LITESTREAM, 'restore', '-config', config, '-o', target, path], { env, stdout: 'ignore', stderr: 'pipe' })
    if ((await restore.exited) !== 0) throw new Error(await new Response(restore.stderr).text())
    const restoreMs = performance.now() - t
    const restored = size(target)
    const stored = await s3.bytes('storage/')
    console.log(
      `first snapshot to S3 (lz4, loopback): ${(size(path) / 1e6).toFixed(0)} MB in ${(replicateMs / 1000).toFixed(1)} s = ${(replicateMs / 1000 / gb(size(path))).toFixed(1)} s per GB; ${(stored / 1e6).toFixed(0)} MB stored (${(size(path) / stored).toFixed(1)}x smaller)`,
    )
    console.log(
      `restore from S3 (loopback): ${(restored / 1e6).toFixed(0)} MB in ${(restoreMs / 1000).toFixed(1)} s = ${(restoreMs / 1000 / gb(restored)).toFixed(1)} s per GB`,
    )
  } finally {
    await s3.stop()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
