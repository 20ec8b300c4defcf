/**
 * In-memory per-minute buckets (docs/api.md, Limits). Each key gets `limit` requests per window;
 * the bucket refills whole when its window ends. Expired buckets are indistinguishable from new
 * ones, so dropping them loses nothing: they are swept so that many distinct IPs cannot grow
 * memory without bound.
 */
export interface Bucket {
  remaining: number
  resetAt: number
}

export interface Decision {
  allowed: boolean
  limit: number
  remaining: number
  /** Epoch ms when the window resets. */
  resetAt: number
}

const WINDOW_MS = 60_000
/**
 * Past this many live buckets (about 7 MB) the oldest half is dropped even before its window
 * ends: only more distinct clients than this within one minute ever get a fresh bucket early.
 */
const HARD_CAP = 100_000

export class RateLimiter {
  private buckets = new Map<string, Bucket>()
  private lastSweep = 0

  constructor(
    private readonly now: () => number,
    private readonly hardCap = HARD_CAP,
  ) {}

  /** Takes one request from `key`'s bucket of `limit` per minute. */
  take(key: string, limit: number): Decision {
    const now = this.now()
    if (now - this.lastSweep >= WINDOW_MS || this.buckets.size > this.hardCap) this.sweep(now)
    let bucket = this.buckets.get(key)
    if (!bucket || bucket.resetAt <= now) {
      bucket = { remaining: limit, resetAt: now + WINDOW_MS }
      this.buckets.set(key, bucket)
    }
    if (bucket.remaining <= 0) return { allowed: false, limit, remaining: 0, resetAt: bucket.resetAt }
    bucket.remaining--
    return { allowed: true, limit, remaining: bucket.remaining, resetAt: bucket.resetAt }
  }

  /** What `take` would see, without taking (a CORS preflight reports the limit but spends none of it). */
  peek(key: string, limit: number): Decision {
    const now = this.now()
    const bucket = this.buckets.get(key)
    if (!bucket || bucket.resetAt <= now) return { allowed: true, limit, remaining: limit, resetAt: now + WINDOW_MS }
    return { allowed: bucket.remaining > 0, limit, remaining: bucket.remaining, resetAt: bucket.resetAt }
  }

  /** How many buckets are held (for the eviction test and the benchmark). */
  get size(): number {
    return this.buckets.size
  }

  private sweep(now: number): void {
    this.lastSweep = now
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key)
    // Map iterates in insertion order: what is left over the cap is the oldest.
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.hardCap / 2) break
      this.buckets.delete(key)
    }
  }
}
