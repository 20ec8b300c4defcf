/**
 * The object-storage restore drill (issue 10). Runs the service through deploy/entrypoint.sh
 * with Litestream replicating to a local S3-compatible server, configured only through the
 * documented LITESTREAM_* environment:
 *
 * 1. restore: writes sales and refunds through the API, stops the service (SIGTERM), deletes
 *    the database, starts again through the entrypoint (which restores it), and compares every
 *    count and sum; the old API key still works and a replayed sale answers 409.
 * 2. recovery point: under sale load, kills the service and Litestream together (kill -9 of the
 *    whole process group, as when the machine and its disk are lost), restores the replica
 *    elsewhere and counts the acknowledged sales it lacks: the age of the oldest of them is the
 *    recovery point (the replication lag).
 *
 * `bun drills/restore.ts` (or `npm run drill`); DRILL_SALES, DRILL_RPO_ROUNDS set the sizes.
 * test/runtime/litestream.test.ts runs part 1 small.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLocalS3, type LocalS3 } from '../test/runtime/s3.ts'
import {
  client,
  figures,
  inParallel,
  LITESTREAM,
  line,
  ROOT,
  saleBody,
  SERVER_CMD,
  setUpProgram,
  startService,
  storedTransactions,
  type Program,
} from './lib.ts'

export interface RestoreResult {
  before: Record<string, number>
  after: Record<string, number>
  /** Status of a read with the program's old key after the restore (200 expected). */
  oldKeyStatus: number
  /** Status of a replayed sale after the restore (409 expected). */
  replayStatus: number
  /** Entrypoint start to listening on the second start, restore included. */
  restoreMs: number
  firstExit: number | null
}

/** The environment of a service under the entrypoint with its replica on `s3` under `path`. */
export function serviceEnv(s3: LocalS3, dir: string, path: string): Record<string, string> {
  return {
    ...s3.env(path),
    DATABASE_PATH: join(dir, 'data/svc.db'),
    LITESTREAM_BIN: LITESTREAM,
    LITESTREAM_CONFIG: join(ROOT, 'db/litestream.yml'),
    SVC_SERVER_CMD: SERVER_CMD,
    // One client sends every request: per-minute limits would only measure themselves.
    SVC_RATE_LIMIT_SCALE: '10000',
  }
}

/** Waits (10 s at most) until the replica under `prefix` holds a snapshot and a WAL segment. */
export async function replicaStarted(s3: LocalS3, prefix: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(100)) {
    // s3rver reads each object's metadata file while listing; one Litestream is writing at that
    // moment reads as empty JSON and throws ("JSON Parse error: Unexpected EOF"): list again.
    const keys = await s3.keys(prefix).catch(() => [] as string[])
    if (keys.some((k) => k.includes('/snapshots/')) && keys.some((k) => k.includes('/wal/'))) return
  }
  throw new Error(`no Litestream generation under ${prefix} after 10 s`)
}

/** Writes `sales` sales through the API, `width` at a time; every `refundEvery`-th is refunded (every other one of those as a chargeback). */
async function writeSales(url: string, program: Program, sales: number, refundEvery: number, width: number): Promise<void> {
  const { send } = client(url)
  await inParallel(sales, width, async (i) => {
    const reply = await send('POST', '/api/v1/track/sale', saleBody(program, 'r', i), program.apiKey)
    if (reply.status !== 200 && reply.status !== 201) throw new Error(`sale ${i}: ${reply.status} ${JSON.stringify(reply.json)}`)
    if (i % refundEvery === 0) {
      const refund = await send(
        'POST',
        '/api/v1/track/refund',
        { transaction_id: `txn_r_${i}`, reason: i % (refundEvery * 2) === 0 ? 'chargeback' : 'refund' },
        program.apiKey,
      )
      if (refund.status !== 200) throw new Error(`refund ${i}: ${refund.status} ${JSON.stringify(refund.json)}`)
    }
  })
}

/** Part 1: write `sales` sales (every `refundEvery`-th refunded, some as chargebacks), stop, delete, restore, compare. */
export async function restoreDrill(options: {
  sales: number
  refundEvery?: number
  customers?: number
  width?: number
}): Promise<RestoreResult> {
  const { sales, refundEvery = 5, customers = 40, width = 16 } = options
  const s3 = await startLocalS3()
  const dir = mkdtempSync(join(tmpdir(), 'svc-drill-restore-'))
  try {
    const env = serviceEnv(s3, dir, 'svc')
    const first = await startService(env, join(dir, 'first.log'))
    let firstExit: number | null
    let program: Awaited<ReturnType<typeof setUpProgram>>
    try {
      // Litestream starts its generation at its first sync (1 s after start): a stop before that
      // leaves nothing to restore.
      await replicaStarted(s3, 'svc/')
      program = await setUpProgram(first.url, 'r', customers)
      await writeSales(first.url, program, sales, refundEvery, width)
      // Litestream forwards SIGTERM to the server, waits for it, then makes its last sync.
      firstExit = await first.term()
    } catch (error) {
      // A failed step must not leave the entrypoint, Litestream and the server running behind it.
      await first.kill9()
      throw error
    }
    const before = figures(env.DATABASE_PATH)

    rmSync(join(dir, 'data'), { recursive: true, force: true })
    const started = performance.now()
    const second = await startService(env, join(dir, 'second.log'))
    const restoreMs = performance.now() - started
    try {
      const after = figures(env.DATABASE_PATH)
      const { send: again } = client(second.url)
      const oldKey = await again('GET', '/api/v1/programs/me/readiness', undefined, program.apiKey)
      const replay = await again('POST', '/api/v1/track/sale', saleBody(program, 'r', 1), program.apiKey)
      return { before, after, oldKeyStatus: oldKey.status, replayStatus: replay.status, restoreMs, firstExit }
    } finally {
      await second.term()
    }
  } finally {
    await s3.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface RecoveryPointRound {
  acknowledged: number
  /** Acknowledged sales the replica lacks. */
  lost: number
  /** How long before the kill the oldest lost sale was acknowledged (0 when none was lost). */
  recoveryPointMs: number
}

/** Part 2: one round of sale load for `loadMs`, then kill -9 of the group; what the replica lacks. */
export async function recoveryPointRound(options: { loadMs: number; width?: number; syncInterval?: string }): Promise<RecoveryPointRound> {
  const { loadMs, width = 16, syncInterval = '1s' } = options
  const s3 = await startLocalS3()
  const dir = mkdtempSync(join(tmpdir(), 'svc-drill-rpo-'))
  try {
    const env: Record<string, string> = { ...serviceEnv(s3, dir, 'svc'), LITESTREAM_SYNC_INTERVAL: syncInterval }
    const service = await startService(env, join(dir, 'service.log'))
    await replicaStarted(s3, 'svc/')
    const program = await setUpProgram(service.url, 'p', 20)
    const { send } = client(service.url)
    const acked = new Map<string, number>()
    let stop = false
    let n = 0
    const worker = async () => {
      while (!stop) {
        const body = saleBody(program, 'p', n++)
        try {
          const reply = await send('POST', '/api/v1/track/sale', body, program.apiKey)
          if (reply.status === 201 || reply.status === 200) acked.set(body.transaction_id, performance.now())
        } catch {
          /* the kill: unanswered, so not acknowledged */
        }
      }
    }
    const load = Promise.all(Array.from({ length: width }, worker))
    await Bun.sleep(loadMs)
    const killedAt = performance.now()
    await service.kill9()
    stop = true
    await load
    // A new machine: only the replica is left.
    const restored = join(dir, 'restored/svc.db')
    mkdirSync(join(dir, 'restored'))
    // Asynchronous: the S3 server answers from this very process.
    const run = Bun.spawn([LITESTREAM, 'restore', '-config', join(ROOT, 'db/litestream.yml'), '-o', restored, env.DATABASE_PATH], {
      env: { ...process.env, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    if ((await run.exited) !== 0) throw new Error(`litestream restore failed: ${await new Response(run.stderr).text()}`)
    const stored = storedTransactions(restored)
    let lost = 0
    let oldest = killedAt
    for (const [id, at] of acked) {
      if (stored.has(id)) continue
      lost++
      oldest = Math.min(oldest, at)
    }
    return { acknowledged: acked.size, lost, recoveryPointMs: Math.round(killedAt - oldest) }
  } finally {
    await s3.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const sales = Number(process.env.DRILL_SALES ?? 3_000)
  const rounds = Number(process.env.DRILL_RPO_ROUNDS ?? 3)
  const result = await restoreDrill({ sales })
  const same = JSON.stringify(result.before) === JSON.stringify(result.after)
  console.log(line('restore from S3 (before)', result.before))
  console.log(line('restore from S3 (after) ', result.after))
  console.log(
    line('restore from S3', {
      identical: same,
      old_key_status: result.oldKeyStatus,
      replayed_sale_status: result.replayStatus,
      first_exit: result.firstExit,
      restart_with_restore_ms: Math.round(result.restoreMs),
    }),
  )
  const points: number[] = []
  for (let round = 1; round <= rounds; round++) {
    const r = await recoveryPointRound({ loadMs: 3_000 + round * 700 })
    points.push(r.recoveryPointMs)
    console.log(
      line(`recovery point round ${round}`, {
        acknowledged: r.acknowledged,
        lost_from_replica: r.lost,
        recovery_point_ms: r.recoveryPointMs,
      }),
    )
  }
  console.log(
    line('recovery point (sync-interval 1s)', {
      rounds,
      max_ms: Math.max(...points),
      mean_ms: Math.round(points.reduce((a, b) => a + b, 0) / points.length),
    }),
  )
  if (!same || result.oldKeyStatus !== 200 || result.replayStatus !== 409) process.exitCode = 1
}
