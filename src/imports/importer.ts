// The one importer (docs/imports.md): reads a source page by page into the import's staged rows,
// then writes them in date order into the program. Each page and each batch of rows commits with
// the cursor that follows it, so a restart goes on where it stopped; every written row keeps its
// source id (UNIQUE), so a second run adds nothing twice. No email, webhook or fraud check: the
// rows are written through the stores, not the tracking use cases.
import type { Clock } from '../clock.ts'
import type { Database } from '../db/open.ts'
import type { Import } from '../db/schema.ts'
import type { ReadCursor, StagedRow, WriteCursor } from '../db/import-store.ts'
import { bookedAt, type ImportSource, SOURCE_LINK_PARAMS, withLinkParam } from '../domain/imports.ts'
import { applyRow, type ApplyContext, newDryMemory } from './apply.ts'
import { firstpromoter } from './firstpromoter.ts'
import { partnerstack } from './partnerstack.ts'
import { rewardful } from './rewardful.ts'
import { type Sleep, type Source, SourceError, SourceHttp, type SourceOptions, type SourceRow } from './source.ts'
import { tolt } from './tolt.ts'
import { openSourceKey } from './key.ts'
import { endCanceled } from './start.ts'
import { Rerun } from '../outbox/rerun.ts'

export const SOURCES: Record<ImportSource, Source> = { rewardful, tolt, firstpromoter, partnerstack }

export interface ImportDeps {
  database: Database
  clock: Clock
  /** The server's secret, which seals the source key at rest (imports/key.ts). */
  secret: string
  /** ALLOW_PRIVATE_URLS: a source may then be on a private address. */
  allowPrivate: boolean
  sleep?: Sleep
  /** The caps of one import; IMPORT_LIMITS unless a test wants smaller ones. */
  limits?: ImportLimits
}

/** How much one import may read (docs/imports.md): past either, it ends failed. */
interface ImportLimits {
  pages: number
  rows: number
}

/** Generous: the largest program measured (bench/imports.ts) reads ~1,500 pages and ~150,000 rows. */
const IMPORT_LIMITS: ImportLimits = { pages: 100_000, rows: 5_000_000 }

/** Thrown inside the job's writer units when the import was canceled meanwhile: nothing more is written. */
class Canceled extends Error {}

/** Staged rows written per writer unit: small enough that the tracking paths wait little behind one. */
const WRITE_BATCH = 500

/** The options of an import for its source: base_url or the documented base, and the source key opened. */
function optionsOf(job: Import, secret: string): SourceOptions {
  return {
    apiKey: job.apiKey === null ? '' : (openSourceKey(secret, job.apiKey) ?? ''),
    baseUrl: job.options.baseUrl ?? SOURCES[job.source].base,
    sourceProgramId: job.options.sourceProgramId ?? null,
    accountId: job.options.accountId ?? null,
  }
}

/**
 * Runs one import to its end (done or failed), or until `signal` aborts (a stop: it stays
 * running and the next start resumes it). A source answer that is an error ends it failed, with
 * the source's words; anything else thrown is a bug and ends it failed too, with its message.
 */
export async function runImport(deps: ImportDeps, importId: number, signal: AbortSignal): Promise<void> {
  const { writer, stores } = deps.database
  // A unit of the job: nothing is written once the import was canceled.
  const unit = <T>(work: () => T) =>
    writer.run(() => {
      if (!stores.imports.isOpen(importId)) throw new Canceled()
      return work()
    })
  try {
    await unit(() => stores.imports.start(importId, deps.clock.now()))
    let job = stores.imports.find(importId)!
    if (job.phase === 'read') {
      if (job.apiKey === null || openSourceKey(deps.secret, job.apiKey) === null)
        throw new SourceError('the source key is gone or cannot be read: start the import again')
      await read(deps, job, signal, unit)
      job = stores.imports.find(importId)!
    }
    if (signal.aborted) return
    await write(deps, job, signal, unit)
    if (signal.aborted) return
    await unit(() => {
      if (!job.dryRun) {
        const program = stores.programs.findProgram(job.programId)!
        // The source's parameter, and any its links name of their own (Tolt's per-link `param`).
        let params = withLinkParam(program.linkParams, SOURCE_LINK_PARAMS[job.source])
        for (const param of stores.imports.stagedLinkParams(importId)) params = withLinkParam(params, param)
        stores.importWrites.setLinkParams(job.programId, params)
      }
      stores.imports.finish(importId, 'done', null, deps.clock.now())
    })
  } catch (error) {
    if (error instanceof Canceled || !stores.imports.isOpen(importId) || signal.aborted) return
    const message = error instanceof SourceError ? error.message : `the import stopped on an error: ${(error as Error)?.message ?? error}`
    await writer.run(() => stores.imports.isOpen(importId) && stores.imports.finish(importId, 'failed', message, deps.clock.now()))
  }
}

type Unit = <T>(work: () => T) => Promise<T>

/**
 * The read phase, page after page. A hostile or broken source cannot keep it going: a next page
 * the step has already read (no progress) ends it failed, and so do more pages or rows than the
 * import's caps (IMPORT_LIMITS).
 */
async function read(deps: ImportDeps, job: Import, signal: AbortSignal, unit: Unit): Promise<void> {
  const { stores } = deps.database
  const source = SOURCES[job.source]
  const options = optionsOf(job, deps.secret)
  const missing = source.missing(options)
  if (missing) throw new SourceError(missing)
  const limits = deps.limits ?? IMPORT_LIMITS
  const http = new SourceHttp(source, options, signal, deps.sleep, deps.allowPrivate)
  const steps = source.steps(options)
  const holding = stores.payouts.findTerms(job.programId)?.holdingPeriodDays ?? 0
  let cursor = (job.cursor as ReadCursor | null) ?? { step: 0, page: null }
  // The pages this step has read (in this run: after a restart, the page cap still bounds a loop).
  let seen = new Set<string | null>([cursor.page])
  while (cursor.step < steps.length) {
    const step = steps[cursor.step]!
    const page = await step.read(http, cursor.page)
    if (signal.aborted) return
    const pages = (cursor.pages ?? 0) + 1
    if (page.next !== null && seen.has(page.next))
      throw new SourceError(`${source.name} named a page of ${step.name} it had already answered: the import stops`)
    if (pages > limits.pages) throw new SourceError(`${source.name} answered more than ${limits.pages} pages: the import stops`)
    const now = deps.clock.now()
    const rows = page.rows.map((row) => staged(row, now, holding))
    const next: ReadCursor =
      page.next === null ? { step: cursor.step + 1, page: null, pages } : { step: cursor.step, page: page.next, pages }
    const readRows = await unit(() => {
      stores.imports.stage(job.id, rows, page.skipped, next)
      return stores.imports.find(job.id)!.readRows
    })
    if (readRows > limits.rows) throw new SourceError(`${source.name} answered more than ${limits.rows} rows: the import stops`)
    if (next.step !== cursor.step) seen = new Set([null])
    seen.add(next.page)
    cursor = next
  }
  await unit(() => {
    stores.imports.stage(job.id, paidPayouts(deps.database, job.id), [], cursor)
    stores.imports.settlePayoutTimes(job.id)
    stores.imports.startWriting(job.id)
  })
}

/** A source row with its booking time (domain/imports.ts bookedAt; a payout is booked when it was paid). */
function staged(row: SourceRow, now: number, holdingPeriodDays: number): StagedRow {
  const at =
    row.kind === 'commission' ? bookedAt(row.data.state, row.at || now, now, holdingPeriodDays, null) : Math.min(row.at || now, now)
  return { kind: row.kind, sourceId: row.sourceId, at, data: row.data as unknown as Record<string, unknown> }
}

/**
 * The paid payouts of the paid commissions no source payout named: one per source payout id the
 * commission carries (Tolt), else one per partner and currency (FirstPromoter, PartnerStack: their
 * payouts name no commission), paid when the last of them was.
 */
function paidPayouts(database: Database, importId: number): StagedRow[] {
  const covered = database.stores.imports.paidByStagedPayouts(importId)
  const groups = new Map<string, StagedRow>()
  for (const c of database.stores.imports.stagedPaid(importId)) {
    if (covered.has(c.sourceId)) continue
    const key = c.payout ?? `paid_${c.partner}_${c.currency ?? ''}`
    let row = groups.get(key)
    if (!row) groups.set(key, (row = { kind: 'payout', sourceId: key, at: c.at, data: { partner: c.partner, commissions: [] } }))
    ;(row.data.commissions as string[]).push(c.sourceId)
    row.at = Math.max(row.at, c.at)
  }
  return [...groups.values()]
}

async function write(deps: ImportDeps, job: Import, signal: AbortSignal, unit: Unit): Promise<void> {
  const { stores } = deps.database
  // A dry run remembers in memory what it would have written: after a restart it decides again from the first row.
  if (job.dryRun && job.cursor !== null) await unit(() => stores.imports.startWriting(job.id))
  const fresh = stores.imports.find(job.id)!
  const ctx: ApplyContext = {
    database: deps.database,
    importId: job.id,
    programId: job.programId,
    program: stores.programs.findProgram(job.programId)!,
    source: job.source,
    dryRun: job.dryRun,
    now: deps.clock.now(),
    counts: fresh.counts,
    dry: newDryMemory(),
    booked: new Map(),
    holding: new Map(),
  }
  let cursor = fresh.cursor as WriteCursor | null
  for (;;) {
    if (signal.aborted) return
    const rows = stores.imports.nextRows(job.id, cursor, WRITE_BATCH)
    if (rows.length === 0) return
    const last = rows.at(-1)!
    await unit(() => {
      ctx.now = deps.clock.now()
      const skips = []
      for (const row of rows) {
        const outcome = applyRow(ctx, row)
        if (outcome) skips.push({ kind: row.kind, sourceId: row.sourceId, reason: outcome.skipped })
      }
      stores.imports.addSkips(job.id, skips)
      stores.imports.progress(job.id, job.dryRun ? null : { rank: last.rank, at: last.at, id: last.id }, ctx.counts)
    })
    cursor = { rank: last.rank, at: last.at, id: last.id }
  }
}

/**
 * The background job (started by server.ts): takes the oldest open import, runs it, and the next;
 * after a restart the one left running first. One import at a time per process.
 */
export class ImportRunner {
  private readonly abort = new AbortController()
  private readonly runs = new Rerun(
    () => this.loop(),
    () => this.abort.signal.aborted,
  )
  /** The import being run and what stops it alone (a cancel). */
  private current: { id: number; abort: AbortController } | null = null

  constructor(private readonly deps: ImportDeps) {}

  /** Looks for an open import now (a route queued one, or the server just started). */
  wake(): void {
    this.runs.wake()
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.runs.settle()
      const job = this.deps.database.stores.imports.nextOpen()
      if (!job || this.abort.signal.aborted) return
      const current = { id: job.id, abort: new AbortController() }
      this.current = current
      try {
        await runImport(this.deps, job.id, AbortSignal.any([this.abort.signal, current.abort.signal]))
      } finally {
        this.current = null
      }
    }
  }

  /**
   * Cancels an import (docs/imports.md): ends it failed with the error "canceled" in one writer
   * unit with its audit entry (`write`), then stops its requests if it is the one running, and
   * goes on to the next. False when it had ended already.
   */
  async cancel(importId: number, write: (now: number) => void): Promise<boolean> {
    const ended = await endCanceled(this.deps, importId, write)
    if (ended && this.current?.id === importId) this.current.abort.abort()
    return ended
  }

  /** Stops reading and writing: the import stays running, for the next start to resume. */
  async stop(): Promise<void> {
    this.abort.abort()
    await this.runs.current
  }
}
