import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import { emptyCounts, IMPORT_KINDS, type ImportCounts, type ImportKind, type ImportSource } from '../domain/imports.ts'
import type { Connection } from './open.ts'
import { type Import, importRows, importSkips, imports } from './schema.ts'

/** A source row as staged: kind, source id, booking time and its fields in svc's words. */
export interface StagedRow {
  kind: ImportKind
  sourceId: string
  at: number
  data: Record<string, unknown>
}

export interface Skip {
  kind: string
  sourceId: string
  reason: string
}

export type WriteCursor = { rank: number; at: number; id: number }
/** The step and page to read next; `pages`: the pages read so far (the import's cap counts them across restarts). */
export type ReadCursor = { step: number; page: string | null; pages?: number }

/** Commissions and payouts share one rank: they are written merged by date, so that each chain is in date order. */
export const rankOf = (kind: ImportKind) => Math.min(IMPORT_KINDS.indexOf(kind), IMPORT_KINDS.indexOf('commission'))

/** The imports' own records (the job's state, the rows it read, the rows it skipped); writes run inside a writer unit. */
export class ImportStore {
  constructor(private readonly connection: Connection) {}

  create(values: {
    programId: number
    source: ImportSource
    apiKey: string
    dryRun: boolean
    options: Import['options']
    now: number
  }): Import {
    const { now, ...rest } = values
    return this.connection.db
      .insert(imports)
      .values({ ...rest, counts: emptyCounts(), createdAt: now })
      .returning()
      .get()
  }

  find(id: number): Import | null {
    return this.connection.db.select().from(imports).where(eq(imports.id, id)).get() ?? null
  }

  /** The program's imports, newest first (the Settings → Import page), at most `limit`. */
  listOf(programId: number, limit: number): Import[] {
    return this.connection.db.select().from(imports).where(eq(imports.programId, programId)).orderBy(desc(imports.id)).limit(limit).all()
  }

  /** The oldest import not finished (queued, or running when a process stopped), or null. */
  nextOpen(): Import | null {
    return (
      this.connection.db
        .select()
        .from(imports)
        .where(inArray(imports.status, ['queued', 'running']))
        .orderBy(asc(imports.id))
        .limit(1)
        .get() ?? null
    )
  }

  /** Whether the import is still queued or running (a cancel ends it between two of the job's units). */
  isOpen(id: number): boolean {
    const status = this.connection.db.select({ status: imports.status }).from(imports).where(eq(imports.id, id)).get()?.status
    return status === 'queued' || status === 'running'
  }

  /** Ends a queued or running import failed with `error` (a cancel); false when it had ended already. */
  cancel(id: number, error: string, now: number): boolean {
    if (!this.isOpen(id)) return false
    this.finish(id, 'failed', error, now)
    return true
  }

  start(id: number, now: number): void {
    this.connection.db
      .update(imports)
      .set({ status: 'running', startedAt: sql`coalesce(${imports.startedAt}, ${now})` })
      .where(eq(imports.id, id))
      .run()
  }

  /** Stages one page: its rows and skips (each once), and the cursor of the next page, in the caller's unit. */
  stage(id: number, rows: StagedRow[], skips: Skip[], cursor: ReadCursor): void {
    const { client } = this.connection
    const insert = client.prepare(
      'INSERT INTO import_rows (import_id, kind, source_id, rank, at, data) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    let added = 0
    for (const row of rows)
      added += (insert.run(id, row.kind, row.sourceId, rankOf(row.kind), row.at, JSON.stringify(row.data)) as { changes: number }).changes
    this.addSkips(id, skips)
    this.connection.db
      .update(imports)
      .set({ cursor, readRows: sql`${imports.readRows} + ${added}` })
      .where(eq(imports.id, id))
      .run()
  }

  addSkips(id: number, skips: Skip[]): void {
    if (skips.length === 0) return
    const insert = this.connection.client.prepare(
      'INSERT INTO import_skips (import_id, kind, source_id, reason) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    for (const s of skips) insert.run(id, s.kind, s.sourceId, s.reason)
  }

  /** Ends the read phase: the write phase starts at the first staged row, with its counts from zero; the source key is not needed any more. */
  startWriting(id: number): void {
    this.connection.db
      .update(imports)
      .set({ phase: 'write', cursor: null, counts: emptyCounts(), apiKey: null })
      .where(eq(imports.id, id))
      .run()
  }

  /** The next `limit` staged rows after `after`, in (rank, at, id) order. */
  nextRows(id: number, after: WriteCursor | null, limit: number): (StagedRow & { id: number; rank: number })[] {
    const where = after
      ? and(
          eq(importRows.importId, id),
          sql`(${importRows.rank}, ${importRows.at}, ${importRows.id}) > (${after.rank}, ${after.at}, ${after.id})`,
        )
      : eq(importRows.importId, id)
    return this.connection.db
      .select()
      .from(importRows)
      .where(where)
      .orderBy(asc(importRows.rank), asc(importRows.at), asc(importRows.id))
      .limit(limit)
      .all()
  }

  /** A staged row by kind and source id (a commission's customer, a payout's commissions), or null. */
  staged(id: number, kind: ImportKind, sourceId: string): StagedRow | null {
    return (
      this.connection.db
        .select()
        .from(importRows)
        .where(and(eq(importRows.importId, id), eq(importRows.kind, kind), eq(importRows.sourceId, sourceId)))
        .get() ?? null
    )
  }

  /** The staged rows of one kind, as (source id, data), one page after `afterId` (for the payouts made after reading). */
  stagedOfKind(
    id: number,
    kind: ImportKind,
    afterId: number,
    limit: number,
  ): { id: number; sourceId: string; at: number; data: Record<string, unknown> }[] {
    return this.connection.db
      .select({ id: importRows.id, sourceId: importRows.sourceId, at: importRows.at, data: importRows.data })
      .from(importRows)
      .where(and(eq(importRows.importId, id), eq(importRows.kind, kind), sql`${importRows.id} > ${afterId}`))
      .orderBy(asc(importRows.id))
      .limit(limit)
      .all()
  }

  /** Records the write phase's progress: the last row written and the counts so far. */
  progress(id: number, cursor: WriteCursor | null, counts: ImportCounts): void {
    this.connection.db.update(imports).set({ cursor, counts }).where(eq(imports.id, id)).run()
  }

  /** Ends an import (done or failed): the source key is deleted and the staged rows with it. */
  finish(id: number, status: 'done' | 'failed', error: string | null, now: number): void {
    const { db } = this.connection
    db.update(imports).set({ status, error, apiKey: null, finishedAt: now, cursor: null }).where(eq(imports.id, id)).run()
    db.delete(importRows).where(eq(importRows.importId, id)).run()
  }

  /** What the import skipped, in the order it met them, at most `limit`. */
  skipped(id: number, limit: number): Skip[] {
    return this.connection.db
      .select({ kind: importSkips.kind, sourceId: importSkips.sourceId, reason: importSkips.reason })
      .from(importSkips)
      .where(eq(importSkips.importId, id))
      .orderBy(asc(importSkips.id))
      .limit(limit)
      .all()
  }

  /** How many rows the import skipped. */
  skippedCount(id: number): number {
    return this.connection.db.select({ n: sql<number>`count(*)` }).from(importSkips).where(eq(importSkips.importId, id)).get()?.n ?? 0
  }

  /** The source ids of the commissions the staged payouts name. */
  paidByStagedPayouts(id: number): Set<string> {
    const rows = this.connection.client
      .prepare(`SELECT j.value AS id FROM import_rows p, json_each(p.data, '$.commissions') j WHERE p.import_id = ? AND p.kind = 'payout'`)
      .all(id) as { id: string }[]
    return new Set(rows.map((r) => String(r.id)))
  }

  /** The staged commissions in state paid: source id, partner, currency, the source's payout id and when paid. */
  stagedPaid(id: number): { sourceId: string; partner: string; currency: string | null; payout: string | null; at: number }[] {
    return this.connection.client
      .prepare(`SELECT source_id AS sourceId, json_extract(data, '$.partner') AS partner, json_extract(data, '$.currency') AS currency,
          json_extract(data, '$.payout') AS payout, coalesce(json_extract(data, '$.paidAt'), at) AS at
        FROM import_rows WHERE import_id = ? AND kind = 'commission' AND json_extract(data, '$.state') = 'paid' ORDER BY id`)
      .all(id) as { sourceId: string; partner: string; currency: string | null; payout: string | null; at: number }[]
  }

  /** Dates each staged payout no earlier than its latest staged commission: it is written after them. */
  settlePayoutTimes(id: number): void {
    this.connection.client
      // CROSS JOIN keeps json_each outside: each named commission is one lookup in import_rows_once.
      .prepare(`UPDATE import_rows SET at = max(at, coalesce((SELECT max(c.at) FROM json_each(import_rows.data, '$.commissions') j
          CROSS JOIN import_rows c WHERE c.import_id = import_rows.import_id AND c.kind = 'commission' AND c.source_id = j.value), at))
        WHERE import_id = ? AND kind = 'payout'`)
      .run(id)
  }

  /** The query parameters the staged links name of their own (Tolt's per-link `param`), each once. */
  stagedLinkParams(id: number): string[] {
    const rows = this.connection.client
      .prepare(
        `SELECT DISTINCT json_extract(data, '$.param') AS param FROM import_rows WHERE import_id = ? AND kind = 'link' AND json_extract(data, '$.param') IS NOT NULL`,
      )
      .all(id) as { param: string }[]
    return rows.map((r) => r.param).filter((p) => /^[A-Za-z0-9_.-]{1,50}$/.test(p))
  }
}
