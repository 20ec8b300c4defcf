import { and, count, eq, isNotNull, type SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { Elysia } from 'elysia'
import type { Db } from '../db/open'
import { advertisers, clicks, commissions, customers, sales } from '../db/schema'
import { requireProgramKey } from './auth'
import type { Deps } from './deps'
import { doc } from './docs'
import { ok } from './envelope'

type Counts = { clicks: number; leads: number; provisional_leads: number; sales: number; commissions: number }

/** Rows of `table` for one program matching `where`, counted separately for test and live mode. */
function splitCount(db: Db, table: SQLiteTable & { programId: SQLiteColumn; testMode: SQLiteColumn }, programId: number, where?: SQL) {
  const rows = db.select({ test: table.testMode, n: count() }).from(table)
    .where(and(eq(table.programId, programId), where)).groupBy(table.testMode).all() as { test: boolean; n: number }[]
  return { test: rows.find((r) => r.test)?.n ?? 0, live: rows.find((r) => !r.test)?.n ?? 0 }
}

/**
 * The counts of a program, test and live apart (issue 4: test-mode records never mix into live
 * counts). Leads are customers that reached the lead stage (settled); provisional leads, which
 * docs/api.md says do not count, are shown on their own. Commissions count earned entries, not reversals.
 */
export function programCounts(db: Db, programId: number): { live: Counts; test: Counts } {
  const parts = {
    clicks: splitCount(db, clicks, programId),
    leads: splitCount(db, customers, programId, isNotNull(customers.leadAt)),
    provisional_leads: splitCount(db, customers, programId, eq(customers.status, 'provisional')),
    sales: splitCount(db, sales, programId),
    commissions: splitCount(db, commissions, programId, eq(commissions.kind, 'commission')),
  }
  const side = (mode: 'live' | 'test') =>
    Object.fromEntries(Object.entries(parts).map(([name, split]) => [name, split[mode]])) as Counts
  return { live: side('live'), test: side('test') }
}

/** GET /api/v1/cli/status: the program behind the key, with its counts. */
export function cliStatusRoutes(deps: Deps) {
  const { db } = deps.database
  return new Elysia({ name: 'cli-status' })
    .get('/api/v1/cli/status', ({ request }) => {
      const { program } = requireProgramKey(deps, request, 'cli')
      const owner = db.select({ accountId: advertisers.accountId }).from(advertisers).where(eq(advertisers.id, program.advertiserId)).get()
      return ok({
        program_id: program.id,
        program_name: program.name,
        advertiser_id: program.advertiserId,
        account_id: owner?.accountId ?? null,
        domain: program.domain,
        lead_auth: program.leadAuth,
        attribution_window_days: program.attributionWindowDays,
        ...programCounts(db, program.id),
      })
    }, {
      detail: doc('Status of the program behind the API key', 'cli', {
        security: 'programKey',
        description: 'data: { program_id, program_name, advertiser_id, account_id, domain, lead_auth, attribution_window_days, ' +
          'live: Counts, test: Counts } where Counts is { clicks, leads, provisional_leads, sales, commissions }. ' +
          'Test-mode records (CLI test events, additional_data.test_mode) count only under test. No X-Request-ID header except on 500.',
      }),
    })
}
