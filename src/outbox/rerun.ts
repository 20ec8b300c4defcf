/**
 * One background run at a time, woken as often as anyone likes: a wake while a run goes on asks
 * for one more run after it (many wakes, one run), so that work recorded during a run is never
 * left waiting for the next tick. The outbox's senders, the payout sender and the import runner
 * each drain their rows this way.
 */
export class Rerun {
  private running: Promise<void> | null = null
  private again = false

  constructor(
    private readonly run: () => Promise<void>,
    private readonly stopped: () => boolean,
  ) {}

  wake(): void {
    if (this.stopped()) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.run().finally(() => {
      this.running = null
      if (this.again && !this.stopped()) {
        this.again = false
        this.wake()
      }
    })
  }

  /** Forgets the wakes so far: the run about to look at the rows sees what they were for. */
  settle(): void {
    this.again = false
  }

  /** The run going on, if any (resolved: none). */
  get current(): Promise<void> {
    return this.running ?? Promise.resolve()
  }
}
