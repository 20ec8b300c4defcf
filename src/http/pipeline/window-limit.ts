/**
 * At most `limit` events per key in a fixed window (10 wrong setup codes an IP an hour, 10
 * applications an IP an hour, 5 sign-in links an email an hour). Memory is bounded: past
 * `maxKeys` keys the oldest window goes, in constant time; a flood of new keys can only make an
 * old key's count start again, never grow the map or cost more per key.
 */
export class WindowLimit {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  /** Whether `key` has an event left at `now`; null when it has, else the seconds until it has. */
  retryAfter(key: string, now: number): number | null {
    const window = this.windows.get(key)
    if (!window || now - window.start >= this.windowMs || window.count < this.limit) return null
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000))
  }

  /** Counts an event of `key` at `now` when it has one left: null when counted, else the seconds until it has. */
  take(key: string, now: number): number | null {
    const wait = this.retryAfter(key, now)
    if (wait === null) this.hit(key, now)
    return wait
  }

  /** Counts an event of `key` at `now`. */
  hit(key: string, now: number): void {
    let window = this.windows.get(key)
    if (!window || now - window.start >= this.windowMs) {
      this.windows.delete(key)
      if (this.windows.size >= this.maxKeys) this.evict()
      window = { start: now, count: 0 }
      this.windows.set(key, window)
    }
    window.count++
  }

  /**
   * Makes room for one key in O(1): a window is re-inserted when it starts again, so Map order is
   * the order windows started and the first key is the oldest window (expired, if any is). A scan
   * of every key per new key would let a flood of fresh keys spend the cores.
   */
  private evict(): void {
    while (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value as string)
  }
}
