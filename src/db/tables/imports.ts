// Imports from another tool (docs/imports.md): the job's own record, and the source rows it read.
import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { IMPORT_KINDS, IMPORT_SOURCES, IMPORT_STATUSES, type ImportCounts } from '../../domain/imports.ts'
import { bool, createdAt } from './shared.ts'
import { programs } from './programs.ts'

/**
 * One import of a program from a source. The job reads the source page by page (phase `read`,
 * `cursor` the step and the page to read next), then writes what it staged in date order (phase
 * `write`, `cursor` the last staged row written): both cursors move in the unit that writes the
 * page or the rows, so a restart goes on where it stopped. `api_key` is the source's key, kept only
 * while the import runs (never answered, set to null when it ends).
 */
export const imports = sqliteTable(
  'imports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    source: text('source', { enum: IMPORT_SOURCES }).notNull(),
    status: text('status', { enum: IMPORT_STATUSES }).notNull().default('queued'),
    dryRun: bool('dry_run').notNull().default(false),
    apiKey: text('api_key'),
    /** base_url, source_program_id and account_id as the request gave them. */
    options: text('options', { mode: 'json' }).$type<{ baseUrl?: string; sourceProgramId?: string; accountId?: string }>().notNull(),
    phase: text('phase', { enum: ['read', 'write'] })
      .notNull()
      .default('read'),
    cursor: text('cursor', { mode: 'json' }).$type<
      { step: number; page: string | null } | { rank: number; at: number; id: number } | null
    >(),
    counts: text('counts', { mode: 'json' }).$type<ImportCounts>().notNull(),
    /** Rows read so far (the progress shown while reading). */
    readRows: integer('read_rows').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('imports_program').on(t.programId, t.id), index('imports_open').on(t.status).where(sql`status IN ('queued', 'running')`)],
)

/**
 * A source row read by an import, in svc's words (src/imports/source.ts, StagedRow). Read again
 * after a restart, a page adds nothing twice (UNIQUE import, kind, source id). `rank` orders the
 * kinds (domain/imports.ts IMPORT_KINDS; commissions and payouts share one, merged by date) and
 * `at` is the booking time, so the write phase reads them in (rank, at, id) order.
 */
export const importRows = sqliteTable(
  'import_rows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    importId: integer('import_id')
      .notNull()
      .references(() => imports.id),
    kind: text('kind', { enum: IMPORT_KINDS }).notNull(),
    sourceId: text('source_id').notNull(),
    rank: integer('rank').notNull(),
    at: integer('at').notNull(),
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    uniqueIndex('import_rows_once').on(t.importId, t.kind, t.sourceId),
    index('import_rows_order').on(t.importId, t.rank, t.at, t.id),
  ],
)

/** A source row an import did not write, with its reason (the `skipped` of its answer). */
export const importSkips = sqliteTable(
  'import_skips',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    importId: integer('import_id')
      .notNull()
      .references(() => imports.id),
    kind: text('kind').notNull(),
    sourceId: text('source_id').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [uniqueIndex('import_skips_once').on(t.importId, t.kind, t.sourceId)],
)

export type Import = typeof imports.$inferSelect
