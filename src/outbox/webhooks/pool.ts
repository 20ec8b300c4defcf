import type { Clock } from '../../clock.ts'
import { type DueDelivery, WRITE_EVENTS, type WebhookStore } from '../../db/webhook-store.ts'
import type { Writer } from '../../db/writer.ts'
import { shortError } from '../sender.ts'
import { type AttemptJob, type AttemptOutcome, jobOf, recordOutcome } from './attempt.ts'

/** docs/decisions.md, Webhook delivery (turn 4): attempts in flight at once. */
export const POOL_LIMITS = { perEndpoint: 2, perProgram: 8, total: 16 }

/** How many due deliveries of one endpoint a claim takes at most (few: a queued row carries the endpoint as claimed). */
const CLAIM_BATCH = 16
/** The longest an attempt's record waits to join a batch of other units (docs: src/db/writer.ts runSoon). */
const RECORD_WAIT_MS = 25
/** The least time between two looks for due endpoints (real time): a burst of commits looks once. */
const LOOK_EVERY_MS = 10
/** The same while the server is busy: every batch of sales records events and wakes the pool, and attempts are paced then anyway. */
const BUSY_LOOK_EVERY_MS = 100
/** How many events' deliveries one unit writes while the server is busy (WRITE_EVENTS when it is not). */
const WRITE_EVENTS_BUSY = 128
/** While the server is busy, the least time between two such units (real time): more than the paced attempts need. */
const BUSY_WRITE_EVERY_MS = 1_000

export interface PoolOptions {
  /** How often due deliveries are looked for without a wake (real time). */
  intervalMs: number
  /** The deadline of a pool attempt (15 s) and of a test route's attempt (8 s), body included. */
  timeoutMs: number
  testTimeoutMs: number
  allowPrivate: boolean
  /** Signs and sends one attempt (in this thread or a worker's); never rejects. */
  send: (job: AttemptJob) => Promise<AttemptOutcome>
  onDisabled: (endpointId: number, programId: number, now: number) => void
  log: (line: Record<string, unknown>) => void
  limits?: typeof POOL_LIMITS
  /**
   * Whether the server is busy answering requests now (docs/decisions.md: delivery work never
   * slows tracking). While it is, attempts start at most one per `busyGapMs` (real time) in all:
   * the backlog waits for a quieter moment instead of taking the cores from the sales.
   */
  busy?: () => boolean
  busyGapMs?: number
}

/** While the server is busy, the least time between two attempts' starts: at most 50 a second (each costs the process about 0.5 ms of CPU on a loaded machine). */
export const BUSY_GAP_MS = 20

/** One endpoint's turn: its claimed deliveries waiting for a slot, and what it holds. */
interface Lane {
  id: number
  programId: number
  queue: DueDelivery[]
  inFlight: number
  /** Deliveries claimed and not yet recorded (queued, in flight, or being recorded). */
  held: number
  /** Where the next claim starts: after the last delivery claimed (null: from the first). */
  after: { at: number; id: number } | null
}

/**
 * The webhook outbox's sender (src/outbox/README.md): a continuous pool, never batches that wait
 * for their slowest. Each endpoint with due deliveries has a lane; lanes take turns for the slots
 * (at most 2 attempts in flight per endpoint, 8 per program, 16 in all), and a slot freed by one
 * attempt goes at once to the next lane in turn, so that a program's silent receivers hold their
 * own slots and nobody else's. A claimed delivery is held in memory until its attempt is recorded,
 * so that no delivery is attempted twice at once; a crash leaves it pending, attempted again
 * after the restart (at least once).
 */
export class WebhookPool {
  private readonly lanes = new Map<number, Lane>()
  private readonly held = new Set<number>()
  private readonly perProgram = new Map<number, number>()
  private readonly limits: typeof POOL_LIMITS
  private total = 0
  private timer: ReturnType<typeof setInterval> | null = null
  private pending: ReturnType<typeof setTimeout> | null = null
  /** A fill waiting for the busy gap to pass. */
  private paced: ReturnType<typeof setTimeout> | null = null
  private lastLaunch = 0
  private lastLook = 0
  private stopping = false
  private outcomes: { record: () => void; release: () => void }[] = []
  private flushing: Promise<void> | null = null
  /** The unit writing the deliveries of recorded events, while one runs, and when the last one started. */
  private writing: Promise<void> | null = null
  private lastWrite = 0
  private readonly inFlight = new Set<Promise<void>>()

  constructor(
    private readonly writer: Pick<Writer, 'runSoon'>,
    private readonly clock: Clock,
    private readonly store: WebhookStore,
    private readonly options: PoolOptions,
  ) {
    this.limits = options.limits ?? POOL_LIMITS
  }

  /** Starts looking for due deliveries every intervalMs. */
  start(): void {
    this.timer ??= setInterval(() => this.wake(), this.options.intervalMs)
  }

  /** Looks for due deliveries soon (after a commit that recorded events, or a retry): many wakes, one look. */
  wake(): void {
    if (this.stopping || this.pending) return
    const every = this.options.busy?.() ? BUSY_LOOK_EVERY_MS : LOOK_EVERY_MS
    const wait = Math.max(0, this.lastLook + every - Date.now())
    this.pending = setTimeout(() => {
      this.pending = null
      this.lastLook = Date.now()
      try {
        this.look()
      } catch (error) {
        // A database that cannot be read now: the next tick looks again.
        this.options.log({ level: 'error', msg: 'webhook pool failed', error: shortError(error) })
      }
    }, wait)
  }

  /**
   * Attempts one delivery now, outside the pool's slots (the test route's: docs/decisions.md, a
   * test delivery bypasses them), with the test deadline; resolves once its outcome is recorded.
   */
  async attemptNow(row: DueDelivery): Promise<void> {
    this.held.add(row.delivery.id)
    const outcome = await this.options.send(jobOf(row, this.clock.now(), this.options.testTimeoutMs, this.options.allowPrivate))
    await new Promise<void>((resolve) => this.record(row, outcome, () => (this.held.delete(row.delivery.id), resolve())))
  }

  /**
   * Stops looking and starting attempts; waits up to `waitMs` for those in flight and records
   * what is known. An attempt still running then is left unrecorded: pending, it is attempted
   * again after the restart (docs/decisions.md, Shutdown: the whole exit within 10 s).
   */
  async stop(waitMs = 1_000): Promise<void> {
    this.stopping = true
    if (this.timer) clearInterval(this.timer)
    if (this.pending) clearTimeout(this.pending)
    if (this.paced) clearTimeout(this.paced)
    this.timer = this.pending = this.paced = null
    await Promise.race([Promise.all(this.inFlight), new Promise((resolve) => setTimeout(resolve, waitMs))])
    while (this.flushing) await this.flushing
    await this.writing
  }

  /** Claims for the endpoints with due deliveries whose lane is empty, then fills the slots. */
  private look(): void {
    if (this.stopping || this.total >= this.limits.total) return
    this.writeDeliveries()
    const now = this.clock.now()
    for (const { id, programId } of this.store.dueEndpoints(now)) {
      let lane = this.lanes.get(id)
      if (!lane) {
        lane = { id, programId, queue: [], inFlight: 0, held: 0, after: null }
        this.lanes.set(id, lane)
      }
      if (lane.queue.length === 0) this.claim(lane, now)
    }
    this.fill()
  }

  /**
   * Writes the deliveries of the events recorded since the last time (an event is one row in its
   * change's unit; WebhookStore.writeDeliveries), in a unit that joins the next batch of other
   * writes, then looks again. While the server is busy, a few once a second (the attempts are
   * paced then anyway), whatever the lanes hold: waiting for them to empty left every other
   * endpoint without its deliveries while a silent one's queue stayed full.
   */
  private writeDeliveries(): void {
    if (this.writing) return
    const busy = this.options.busy?.() ?? false
    if (busy && performance.now() - this.lastWrite < BUSY_WRITE_EVERY_MS) return
    const { last, written } = this.store.progress()
    if (written >= last) return
    this.lastWrite = performance.now()
    this.writing = this.writer
      .runSoon(() => this.store.writeDeliveries(busy ? WRITE_EVENTS_BUSY : WRITE_EVENTS), RECORD_WAIT_MS)
      .then(
        () => {
          this.writing = null
          this.wake()
        },
        (error) => {
          // Not written now: the next tick tries again; nothing is lost (the events are committed).
          this.writing = null
          this.options.log({ level: 'error', msg: 'webhook deliveries not written', error: shortError(error) })
        },
      )
  }

  /**
   * Claims the lane's next due deliveries, when it and its program have room for an attempt (so
   * that the memory held is bounded by what can run). Claims go on in due order after the lane's
   * last one, so that what it holds (pending and due until recorded) is not read again; a claim
   * that reaches the end starts over next time, which finds anything made due behind it (a
   * retry, a clock set back).
   */
  private claim(lane: Lane, now: number): void {
    if (lane.inFlight >= this.limits.perEndpoint || (this.perProgram.get(lane.programId) ?? 0) >= this.limits.perProgram) return
    let rows: DueDelivery[]
    try {
      rows = this.store.claimOf(lane.id, now, lane.after, CLAIM_BATCH)
    } catch (error) {
      // A claim that cannot be read (or an event body that cannot be built) holds back this lane only.
      this.options.log({ level: 'error', msg: 'webhook deliveries not claimed', webhook_id: lane.id, error: shortError(error) })
      return
    }
    const last = rows.at(-1)?.delivery
    lane.after = rows.length < CLAIM_BATCH || !last ? null : { at: last.nextAttemptAt, id: last.id }
    for (const row of rows) {
      if (this.held.has(row.delivery.id)) continue
      this.held.add(row.delivery.id)
      lane.held++
      lane.queue.push(row)
    }
  }

  /** Gives free slots to the lanes in turn, one attempt per lane per round, until none fits. */
  private fill(): void {
    const { perEndpoint, perProgram, total } = this.limits
    for (let started = true; started && !this.stopping && this.total < total; ) {
      started = false
      for (const lane of [...this.lanes.values()]) {
        if (this.total >= total) break
        if (lane.queue.length === 0) {
          if (lane.held === 0) this.lanes.delete(lane.id)
          continue
        }
        if (lane.inFlight >= perEndpoint || (this.perProgram.get(lane.programId) ?? 0) >= perProgram) continue
        if (!this.mayLaunch()) return
        this.launch(lane, lane.queue.shift()!)
        // Its turn is taken: the lane goes to the back of the line.
        this.lanes.delete(lane.id)
        this.lanes.set(lane.id, lane)
        started = true
      }
    }
  }

  /** Whether an attempt may start now; while the server is busy, a fill is put off until the gap has passed. */
  private mayLaunch(): boolean {
    const now = performance.now()
    if (this.options.busy?.()) {
      const wait = this.lastLaunch + (this.options.busyGapMs ?? BUSY_GAP_MS) - now
      if (wait > 0) {
        this.paced ??= setTimeout(() => {
          this.paced = null
          this.fill()
        }, wait)
        return false
      }
    }
    this.lastLaunch = now
    return true
  }

  private launch(lane: Lane, row: DueDelivery): void {
    this.perProgram.set(lane.programId, (this.perProgram.get(lane.programId) ?? 0) + 1)
    lane.inFlight++
    this.total++
    const job = jobOf(row, this.clock.now(), this.options.timeoutMs, this.options.allowPrivate)
    const attempt = this.options.send(job).then((outcome) => {
      lane.inFlight--
      this.total--
      this.perProgram.set(lane.programId, (this.perProgram.get(lane.programId) ?? 1) - 1)
      if (this.stopping) return
      this.record(row, outcome, () => {
        this.held.delete(row.delivery.id)
        lane.held--
      })
      // A lane running low claims its next deliveries at once; the freed slot goes to the next lane in turn.
      if (lane.queue.length < this.limits.perEndpoint) this.claim(lane, this.clock.now())
      this.fill()
    })
    this.inFlight.add(attempt)
    void attempt.finally(() => this.inFlight.delete(attempt))
  }

  /**
   * Records an outcome as soon as it is known, many in one writer unit that joins the next batch
   * (a unit, and a COMMIT, per attempt cost the sale path more than the sends); `release` runs
   * once it is committed (or failed to be).
   */
  private record(row: DueDelivery, outcome: AttemptOutcome, release: () => void): void {
    const at = this.clock.now()
    this.outcomes.push({ record: () => recordOutcome(this.store, row, outcome, at, this.options.onDisabled), release })
    this.flushing ??= this.flush()
  }

  private async flush(): Promise<void> {
    while (this.outcomes.length > 0) {
      const batch = this.outcomes.splice(0)
      try {
        // A record's COMMIT may wait for the next batch of sales: under load it costs no fsync of
        // its own (those fsyncs were most of what an endpoint cost the sale path, issue 35).
        await this.writer.runSoon(() => {
          for (const { record } of batch) record()
        }, RECORD_WAIT_MS)
      } catch (error) {
        // Not recorded: the deliveries stay pending and are attempted again (at least once).
        this.options.log({ level: 'error', msg: 'webhook outcomes not recorded', error: shortError(error) })
      }
      for (const { release } of batch) release()
    }
    this.flushing = null
  }
}
