// The delivery worker's entry (src/outbox/webhooks/sender-thread.ts starts it): signs and sends
// the attempts it is handed, off the thread that serves requests, and answers each outcome by id.
// A Web Worker, the same on Bun and Deno.
import type { AttemptJob } from './attempt.ts'
import { runAttempt } from './deliver.ts'

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<{ id: number; job: AttemptJob }>) => void) | null
  postMessage(message: unknown): void
}

scope.onmessage = async ({ data: { id, job } }) => {
  scope.postMessage({ id, outcome: await runAttempt(job) })
}
