import { shortError } from '../sender.ts'
import type { AttemptJob, AttemptOutcome } from './attempt.ts'

/**
 * An attempt sent from this thread: deliver.ts and its HTTP client loaded then, not at start
 * (issue 36). Never rejects: a module that cannot be loaded is a failed attempt, retried.
 */
const runAttempt = (job: AttemptJob): Promise<AttemptOutcome> =>
  import('./deliver.ts').then(
    (deliver) => deliver.runAttempt(job),
    (error) => ({ ok: false, error: shortError(error), statusCode: null }),
  )

/**
 * Sends attempts from a worker thread (src/outbox/webhooks/worker.ts), so that the HTTP client's
 * work (headers, sockets, TLS, the answers' bytes) is not done on the thread that serves the
 * tracking routes (bench/README.md, issue 35). The worker starts with the first attempt, not at
 * boot (docs/decisions.md, Performance). When the worker cannot start or dies, its attempts and
 * the later ones are sent from this thread (said once in the log).
 */
export class SenderThread {
  private worker: Worker | null = null
  private broken = false
  private next = 0
  private readonly waiting = new Map<number, { job: AttemptJob; resolve: (outcome: AttemptOutcome) => void }>()

  /**
   * `log` is told, once, that the worker failed and attempts go on in this thread; `module` is the
   * worker's (worker.ts, or in a compiled binary its embedded path; a test gives one that fails).
   */
  constructor(
    private readonly log: (line: Record<string, unknown>) => void,
    private readonly module: string = workerUrl(),
  ) {}

  /** Signs and sends one attempt; never rejects. */
  send(job: AttemptJob): Promise<AttemptOutcome> {
    if (this.broken) return runAttempt(job)
    const worker = this.started()
    if (!worker) return runAttempt(job)
    const id = ++this.next
    return new Promise((resolve) => {
      this.waiting.set(id, { job, resolve })
      worker.postMessage({ id, job })
    })
  }

  /** Ends the worker; attempts still in it stay unrecorded (pending, attempted again after a restart). */
  stop(): void {
    this.worker?.terminate()
    this.worker = null
    this.broken = true
  }

  private fail(error: unknown): void {
    this.broken = true
    this.log({
      level: 'error',
      msg: 'webhook delivery worker failed; attempts are sent from the main thread',
      error: String(error).slice(0, 300),
    })
  }

  private started(): Worker | null {
    if (this.worker) return this.worker
    try {
      this.worker = new Worker(this.module, { type: 'module' })
    } catch (error) {
      this.fail(error)
      return null
    }
    this.worker.onmessage = ({ data }: MessageEvent<{ id: number; outcome: AttemptOutcome }>) => {
      this.waiting.get(data.id)?.resolve(data.outcome)
      this.waiting.delete(data.id)
    }
    this.worker.onerror = (event) => {
      event.preventDefault?.()
      this.worker?.terminate()
      this.worker = null
      this.fail(event.message)
      // What it held is sent again from here (at least once: an attempt it had made is repeated).
      for (const { job, resolve } of this.waiting.values()) void runAttempt(job).then(resolve)
      this.waiting.clear()
    }
    // The worker never keeps the process alive by itself (Bun; Deno's has no unref).
    ;(this.worker as unknown as { unref?: () => void }).unref?.()
    return this.worker
  }
}

/**
 * The worker's module: beside this file, or in a compiled binary (`npm run build:server` embeds it
 * as a second entry point) at its path under the embedded root.
 */
function workerUrl(): string {
  const here = new URL('./worker.ts', import.meta.url).href
  return here.includes('$bunfs') ? '/$bunfs/root/outbox/webhooks/worker.ts' : here
}
