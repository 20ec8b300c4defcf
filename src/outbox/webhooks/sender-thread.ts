import { type AttemptJob, type AttemptOutcome, runAttempt } from './attempt.ts'

/**
 * Sends attempts from a worker thread (src/outbox/webhooks/worker.ts), so that the HTTP client's
 * work (headers, sockets, TLS, the answers' bytes) is not done on the thread that serves the
 * tracking routes (bench/README.md, issue 35). The worker starts with the first attempt, not at
 * boot (docs/decisions.md, Performance). A worker that cannot start or dies fails the attempts it
 * held (they are retried as any failed attempt) and the later ones are sent in this thread.
 */
export class SenderThread {
  private worker: Worker | null = null
  private broken = false
  private next = 0
  private readonly waiting = new Map<number, (outcome: AttemptOutcome) => void>()

  /** Signs and sends one attempt; never rejects. */
  send(job: AttemptJob): Promise<AttemptOutcome> {
    if (this.broken) return runAttempt(job)
    const worker = this.started()
    if (!worker) return runAttempt(job)
    const id = ++this.next
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      worker.postMessage({ id, job })
    })
  }

  /** Ends the worker; attempts still in it stay unrecorded (pending, attempted again after a restart). */
  stop(): void {
    this.worker?.terminate()
    this.worker = null
    this.broken = true
  }

  private started(): Worker | null {
    if (this.worker) return this.worker
    try {
      this.worker = new Worker(new URL('./worker.ts', import.meta.url).href, { type: 'module' })
    } catch {
      this.broken = true
      return null
    }
    this.worker.onmessage = ({ data }: MessageEvent<{ id: number; outcome: AttemptOutcome }>) => {
      const resolve = this.waiting.get(data.id)
      this.waiting.delete(data.id)
      resolve?.(data.outcome)
    }
    this.worker.onerror = (event) => {
      event.preventDefault?.()
      this.broken = true
      this.worker?.terminate()
      this.worker = null
      for (const resolve of this.waiting.values()) resolve({ ok: false, error: 'the delivery worker stopped', statusCode: null })
      this.waiting.clear()
    }
    // The worker never keeps the process alive by itself (Bun; Deno's has no unref).
    ;(this.worker as unknown as { unref?: () => void }).unref?.()
    return this.worker
  }
}
