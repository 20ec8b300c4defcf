import type { Clock } from '../clock.ts'
import type { Writer } from '../db/writer.ts'
import { Rerun } from './rerun.ts'

/**
 * What a kind of outbox row needs of the one sender (src/outbox/README.md): its store's claim,
 * the delivery itself (throws on failure), and the records of an attempt. claim, sent and failed
 * run inside writer units.
 */
export interface Courier<Row, Result = void> {
  /** Whether a row may be due at `now`: a cheap read that spares an idle server its write units. */
  anyDue(now: number): boolean
  claim(now: number): Row[]
  deliver(row: Row): Promise<Result>
  sent(row: Row, now: number, result: Result): void
  /** A failed attempt: `error` is what deliver threw. */
  failed(row: Row, error: unknown, now: number): void
}

export interface SenderOptions {
  /** How often due rows are looked for (real time); a wake() looks at once. */
  intervalMs: number
  /** Deliveries in flight at once: a slow receiver never holds more than these. */
  concurrency: number
  log: (line: Record<string, unknown>) => void
  name: string
}

/** A short text of a failure for `last_error`: its message, never a stack. */
export const shortError = (error: unknown) => String((error as Error)?.message ?? error).slice(0, 300)

/**
 * Claims due rows, delivers them a bounded number at a time outside the writer, and records each
 * attempt in its own writer unit. Time is the injected clock's; the polling is real time.
 */
export class Sender<Row, Result = void> {
  private timer: ReturnType<typeof setInterval> | null = null
  private stopping = false
  private readonly runs = new Rerun(
    () => this.drain(),
    () => this.stopping,
  )

  constructor(
    private readonly writer: Pick<Writer, 'run'>,
    private readonly clock: Clock,
    private readonly courier: Courier<Row, Result>,
    private readonly options: SenderOptions,
  ) {}

  /** Starts polling. */
  start(): void {
    this.timer ??= setInterval(() => this.wake(), this.options.intervalMs)
  }

  /** Looks for due rows now (after a commit that queued one). */
  wake(): void {
    this.runs.wake()
  }

  /** Stops polling and waits for the deliveries in flight (their records included). */
  async stop(): Promise<void> {
    this.stopping = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.runs.current
  }

  /** Delivers every row due now, batch after batch; resolves when none is left. */
  private async drain(): Promise<void> {
    try {
      while (!this.stopping && this.courier.anyDue(this.clock.now())) {
        const rows = await this.writer.run(() => this.courier.claim(this.clock.now()))
        if (rows.length === 0) return
        await this.deliverAll(rows)
      }
    } catch (error) {
      // A database that cannot be written now: the next tick tries again.
      this.options.log({ level: 'error', msg: `${this.options.name} sender failed`, error: shortError(error) })
    }
  }

  /**
   * Delivers the rows, a bounded number at a time; each outcome is recorded as soon as it is
   * known, many in one writer unit (a unit per delivery cost the sale path more than the sends).
   * Resolves once every outcome is recorded.
   */
  private async deliverAll(rows: Row[]): Promise<void> {
    const queue = [...rows]
    const outcomes: (() => void)[] = []
    let flushing: Promise<void> | null = null
    const flush = async () => {
      while (outcomes.length > 0) {
        const batch = outcomes.splice(0)
        await this.writer.run(() => {
          for (const record of batch) record()
        })
      }
      flushing = null
    }
    const worker = async () => {
      for (let row = queue.shift(); row !== undefined; row = queue.shift()) {
        let record: () => void
        try {
          const result = await this.courier.deliver(row)
          const at = this.clock.now()
          record = () => this.courier.sent(row, at, result)
        } catch (error) {
          const at = this.clock.now()
          record = () => this.courier.failed(row, error, at)
        }
        outcomes.push(record)
        flushing ??= flush()
      }
    }
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, rows.length) }, worker))
    while (flushing) await flushing
  }
}
