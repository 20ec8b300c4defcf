/**
 * The crash drill (issue 10): N rounds of sale load against one database file, each ended by
 * kill -9 of the server at a random moment. Afterwards: how many acknowledged sales are missing
 * (must be 0: a 201 is sent only after COMMIT with synchronous=FULL), how many transaction ids
 * or commissions are stored twice (must be 0), and PRAGMA integrity_check after every round.
 *
 * `bun drills/kill9.ts` (or `npm run drill`); DRILL_KILL_ROUNDS (20), DRILL_WIDTH (32).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { client, integrity, line, ROOT, saleBody, setUpProgram, startService, storedTransactions, type Program } from './lib.ts'

export interface Kill9Result {
  rounds: number
  acknowledged: number
  lost: number
  duplicateTransactions: number
  duplicateCommissions: number
  integrityFailures: string[]
}

export async function kill9Drill(options: { rounds: number; width?: number }): Promise<Kill9Result> {
  const { rounds, width = 32 } = options
  const dir = mkdtempSync(join(tmpdir(), 'svc-drill-kill9-'))
  const databasePath = join(dir, 'svc.db')
  const server = [process.execPath, join(ROOT, 'src/main.ts')]
  const env = { DATABASE_PATH: databasePath, SVC_RATE_LIMIT_SCALE: '10000' }
  const acked = new Set<string>()
  const integrityFailures: string[] = []
  let program: Program | null = null
  let n = 0
  try {
    for (let round = 1; round <= rounds; round++) {
      const service = await startService(env, join(dir, `round-${round}.log`), server)
      program ??= await setUpProgram(service.url, 'k', 50)
      const { send } = client(service.url)
      let stop = false
      const worker = async () => {
        while (!stop) {
          const body = saleBody(program!, 'k', n++)
          try {
            const reply = await send('POST', '/api/v1/track/sale', body, program!.apiKey)
            if (reply.status === 201 || reply.status === 200) acked.add(body.transaction_id)
          } catch {
            /* killed under it: not acknowledged */
          }
        }
      }
      const load = Promise.all(Array.from({ length: width }, worker))
      await Bun.sleep(500 + Math.random() * 1_500)
      await service.kill9()
      stop = true
      await load
      const check = integrity(databasePath)
      if (check !== 'ok') integrityFailures.push(`round ${round}: ${check}`)
    }
    const stored = storedTransactions(databasePath)
    let lost = 0
    for (const id of acked) if (!stored.has(id)) lost++
    const db = new Database(databasePath, { readonly: true })
    const dupT = (
      db.prepare('SELECT count(*) AS n FROM (SELECT transaction_id FROM sales GROUP BY transaction_id HAVING count(*) > 1)').get() as {
        n: number
      }
    ).n
    const dupC = (
      db
        .prepare(
          "SELECT count(*) AS n FROM (SELECT sale_id FROM commissions WHERE kind = 'commission' GROUP BY sale_id HAVING count(*) > 1)",
        )
        .get() as { n: number }
    ).n
    db.close()
    return { rounds, acknowledged: acked.size, lost, duplicateTransactions: dupT, duplicateCommissions: dupC, integrityFailures }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const r = await kill9Drill({ rounds: Number(process.env.DRILL_KILL_ROUNDS ?? 20), width: Number(process.env.DRILL_WIDTH ?? 32) })
  console.log(
    line('kill -9 under sale load', {
      rounds: r.rounds,
      acknowledged: r.acknowledged,
      acknowledged_lost: r.lost,
      duplicate_transactions: r.duplicateTransactions,
      duplicate_commissions: r.duplicateCommissions,
      integrity_check: r.integrityFailures.length ? r.integrityFailures.join(' | ') : 'ok every round',
    }),
  )
  if (r.lost || r.duplicateTransactions || r.duplicateCommissions || r.integrityFailures.length) process.exitCode = 1
}
