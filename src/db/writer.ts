import type { SqliteDatabase } from '../runtime/runtime.ts'

interface Pending {
  unit: () => unknown
  /** The unit writes with one statement at most: SQLite undoes a failed statement alone, no SAVEPOINT needed. */
  single: boolean
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * The group-commit writer (docs/decisions.md, Runtime and shape). Write units queued in the same turn of the
 * event loop, or the next, share one BEGIN IMMEDIATE transaction; each runs inside its own SAVEPOINT so that
 * one unit's failure (a UNIQUE violation, a thrown decision) is rolled back alone. Every
 * promise settles only after COMMIT returned, so nothing is acknowledged before it is durable.
 * A unit is synchronous (read, decide, write): it sees every unit queued before it, so no
 * check-then-write race exists.
 */
export class Writer {
  private queue: Pending[] = []
  private scheduled = false
  private soonTimer: ReturnType<typeof setTimeout> | null = null
  private flushing = false
  private afterBatchCallbacks: (() => void)[] = []
  private readonly batchEnds: (() => void)[] = []
  private readonly rollbackHooks: ((what: 'unit' | 'batch') => void)[] = []
  private single = false
  private readonly savepoint: { run(): unknown }
  private readonly release: { run(): unknown }
  private readonly rollbackTo: { run(): unknown }
  /** Batches committed and units run, for tests and the benchmark. */
  readonly stats = { batches: 0, units: 0 }

  constructor(private readonly client: SqliteDatabase) {
    // Prepared once: a unit's SAVEPOINT and RELEASE are on every write's path.
    this.savepoint = client.prepare('SAVEPOINT unit')
    this.release = client.prepare('RELEASE unit')
    this.rollbackTo = client.prepare('ROLLBACK TO unit')
  }

  /** Runs `unit` inside the next batch; resolves with its result after COMMIT, rejects with what it threw. */
  run<T>(unit: () => T): Promise<T> {
    return this.enqueue(unit, false)
  }

  /**
   * `run` for a unit whose commit may wait (an outbox attempt's record): it joins the next batch
   * that other units start, and only when none starts within `maxWaitMs` does it start one. Under
   * load it costs no COMMIT (no fsync) of its own; its promise settles after the COMMIT, like run's.
   */
  runSoon<T>(unit: () => T, maxWaitMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit, single: false, resolve: resolve as (value: unknown) => void, reject })
      if (this.scheduled || this.soonTimer) return
      this.soonTimer = setTimeout(() => {
        this.soonTimer = null
        if (this.scheduled || this.queue.length === 0) return
        this.scheduled = true
        setImmediate(() => this.flush())
      }, maxWaitMs)
    })
  }

  /**
   * `run` for a unit that reads as it likes but writes with one statement at most (a click): a
   * statement that fails is undone by SQLite alone, so the unit needs no SAVEPOINT of its own
   * (its SAVEPOINT and RELEASE were a tenth of a click's SQLite time, issue 14).
   */
  runSingleWrite<T>(unit: () => T): Promise<T> {
    return this.enqueue(unit, true)
  }

  private enqueue<T>(unit: () => T, single: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit, single, resolve: resolve as (value: unknown) => void, reject })
      if (!this.scheduled) {
        this.scheduled = true
        // setImmediate runs after the pending I/O callbacks, twice: the requests that arrived
        // together, whose bodies are read over the next turn, join one batch (with 32 connections'
        // commissioned sales, 25 a batch on average instead of 18: fewer fsyncs a sale; bench/README.md,
        // issue 35, fourth session).
        setImmediate(() => setImmediate(() => this.flush()))
      }
    })
  }

  /**
   * Runs `callback` once the batch now running has ended, committed or rolled back (at once when
   * no batch is running): the catalog drops its copies there, after every unit of the batch.
   */
  afterBatch(callback: () => void): void {
    if (this.flushing) this.afterBatchCallbacks.push(callback)
    else callback()
  }

  /**
   * Registers `write`, run at the end of every batch, before its COMMIT and in its transaction:
   * what the batch's units left to be written once for all of them (a program's click count for
   * the day, written once however many of its clicks the batch holds). A throw fails the batch.
   */
  beforeCommit(write: () => void): void {
    this.batchEnds.push(write)
  }

  /**
   * Registers `forget`, run whenever a unit's writes ('unit') or a whole batch ('batch': its
   * COMMIT failed) are rolled back: what keeps copies of rows written in the transaction (the
   * chains' heads) drops them there.
   */
  onRollback(forget: (what: 'unit' | 'batch') => void): void {
    this.rollbackHooks.push(forget)
  }

  private rolledBack(what: 'unit' | 'batch'): void {
    for (const forget of this.rollbackHooks) forget(what)
  }

  /**
   * Whether the unit now running is a single-write unit (runSingleWrite): a unit that no SAVEPOINT
   * can undo in part, so what it leaves for the batch's end stays true once it has returned.
   */
  get inSingleWrite(): boolean {
    return this.single
  }

  /** Runs the queued batch now (shutdown: nothing queued is dropped). */
  drain(): void {
    this.flush()
  }

  private flush(): void {
    this.scheduled = false
    if (this.soonTimer) clearTimeout(this.soonTimer)
    this.soonTimer = null
    const batch = this.queue
    this.queue = []
    if (batch.length === 0) return
    this.flushing = true
    try {
      this.commit(batch)
    } finally {
      this.flushing = false
      const callbacks = this.afterBatchCallbacks
      this.afterBatchCallbacks = []
      for (const callback of callbacks) callback()
    }
  }

  /**
   * SQLite copies each page a unit's SAVEPOINT changes to a sub-journal first; past 64 KiB (a
   * commissioned sale changes about 20 pages) it moves that journal to a temporary file for the
   * rest of the transaction, a write per page per unit: most of a sale's system CPU (bench/README.md,
   * issue 35, fourth session). The batch keeps it in memory (the WAL, not this journal, makes a
   * COMMIT durable); outside batches temporary storage is the default again, so that a large
   * sort of a read spills to a file instead of growing the process.
   */
  private commit(batch: Pending[]): void {
    try {
      this.commitBatch(batch)
    } finally {
      try {
        this.client.exec('PRAGMA temp_store = DEFAULT')
      } catch {
        /* a closed connection (shutdown); SQLite refuses it inside a transaction, which a batch never leaves open */
      }
    }
  }

  private commitBatch(batch: Pending[]): void {
    const outcomes: { ok: boolean; value: unknown }[] = []
    try {
      this.client.exec('PRAGMA temp_store = MEMORY')
      this.client.exec('BEGIN IMMEDIATE')
    } catch (error) {
      // No unit ran (a connection closed at shutdown, or locked): each is refused.
      for (const p of batch) p.reject(error)
      return
    }
    for (const p of batch) {
      if (p.single) {
        this.single = true
        try {
          outcomes.push({ ok: true, value: p.unit() })
        } catch (error) {
          this.rolledBack('unit')
          outcomes.push({ ok: false, value: error })
        } finally {
          this.single = false
        }
        continue
      }
      this.savepoint.run()
      try {
        outcomes.push({ ok: true, value: p.unit() })
        this.release.run()
      } catch (error) {
        this.rollbackTo.run()
        this.release.run()
        this.rolledBack('unit')
        outcomes.push({ ok: false, value: error })
      }
    }
    try {
      for (const write of this.batchEnds) write()
      this.client.exec('COMMIT')
    } catch (error) {
      try {
        this.client.exec('ROLLBACK')
      } catch {
        /* already rolled back by SQLite */
      }
      this.rolledBack('batch')
      for (const p of batch) p.reject(error)
      return
    }
    this.stats.batches++
    this.stats.units += batch.length
    batch.forEach((p, i) => {
      if (outcomes[i].ok) p.resolve(outcomes[i].value)
      else p.reject(outcomes[i].value)
    })
  }
}
