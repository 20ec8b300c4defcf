import { hashKey } from '../../domain/key-hash.ts'

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
/** 2^17 buckets in 3.7 MB, allocated once: far more distinct clients a minute than one server sees. */
const SLOTS = 1 << 17
/** How many neighbouring slots a key may occupy (linear probing); the least recently used of them makes room. */
const PROBES = 32

/**
 * The buckets live in a fixed table of typed arrays, indexed by a seeded hash of the key: no
 * object, string or Map entry is kept per client, so a request allocates nothing here, memory
 * never grows, and nothing ever walks or sweeps the buckets. (A Map of 100,000 buckets held
 * 35 MB, and sweeping 50,000 of them at once stalled every request behind it: issue 14, the
 * click's p99 was 8 ms with the sweep and 3.4 ms without any limiter.) A key is found by its
 * slot and a second, independent 32-bit fingerprint, so two clients share a bucket only if both
 * hashes agree (about one chance in 2^31 per neighbour). When all of a key's slots hold open
 * windows, the least recently used one is given up: only more distinct clients than the table
 * holds, within one minute and one neighbourhood, ever get a fresh bucket early, and a client
 * that keeps sending (a flood) keeps its own. The seed is random per process, so that nobody can
 * choose keys that crowd one neighbourhood.
 */
export class RateLimiter {
  // Allocated with the first bucket, not at start: an idle server keeps none of it resident (issue 36).
  private fingerprints = new Uint32Array(0)
  private resets = new Float64Array(0)
  private lastUsed = new Float64Array(0)
  // Float64: a limit times SVC_RATE_LIMIT_SCALE (no upper bound) may pass 2^31.
  private remaining = new Float64Array(0)
  private readonly mask: number
  private readonly seed = crypto.getRandomValues(new Uint32Array(2))
  private readonly hashes = new Uint32Array(2)

  constructor(
    private readonly now: () => number,
    /** The table's size, rounded up to a power of two (tests use small tables). */
    slots = SLOTS,
  ) {
    let size = PROBES
    while (size < slots) size *= 2
    this.mask = size - 1
  }

  private allocate(): void {
    const size = this.mask + 1
    this.fingerprints = new Uint32Array(size)
    this.resets = new Float64Array(size)
    this.lastUsed = new Float64Array(size)
    this.remaining = new Float64Array(size)
  }

  /** Takes one request from `key`'s bucket of `limit` per minute. */
  take(key: string, limit: number): Decision {
    const now = this.now()
    const slot = this.slotOf(key, now, true, limit)
    const resetAt = this.resets[slot]
    const left = this.remaining[slot]
    if (left <= 0) return { allowed: false, limit, remaining: 0, resetAt }
    this.remaining[slot] = left - 1
    return { allowed: true, limit, remaining: left - 1, resetAt }
  }

  /** What `take` would see, without taking (a CORS preflight reports the limit but spends none of it). */
  peek(key: string, limit: number): Decision {
    const now = this.now()
    const slot = this.slotOf(key, now, false)
    if (slot < 0) return { allowed: true, limit, remaining: limit, resetAt: now + WINDOW_MS }
    return { allowed: this.remaining[slot] > 0, limit, remaining: this.remaining[slot], resetAt: this.resets[slot] }
  }

  /** How many buckets have an open window (for the tests and the benchmark). */
  get size(): number {
    const now = this.now()
    let open = 0
    for (let slot = 0; slot <= this.mask; slot++) if (this.fingerprints[slot] !== 0 && this.resets[slot] > now) open++
    return open
  }

  /**
   * The slot of `key`'s open bucket. Without one: -1 when only looking, else a fresh bucket of
   * `limit` for a whole window in the first free or expired slot of its neighbourhood, or in its
   * least recently used one.
   */
  private slotOf(key: string, now: number, create: boolean, limit = 0): number {
    if (this.fingerprints.length === 0) {
      if (!create) return -1
      this.allocate()
    }
    hashKey(key, this.seed[0], this.seed[1], this.hashes)
    const h1 = this.hashes[0]
    const fingerprint = this.hashes[1]
    let candidate = -1
    for (let probe = 0; probe < PROBES; probe++) {
      const slot = (h1 + probe) & this.mask
      const held = this.fingerprints[slot]
      if (held === fingerprint) {
        if (this.resets[slot] > now) {
          this.lastUsed[slot] = now
          return slot
        }
        candidate = slot
        break
      }
      if (held === 0) {
        // Keys are placed at the first usable slot, so none of them lies past a slot never used.
        if (candidate < 0 || this.resets[candidate] > now) candidate = slot
        break
      }
      if (candidate < 0 || (this.resets[candidate] > now && (this.resets[slot] <= now || this.lastUsed[slot] < this.lastUsed[candidate])))
        candidate = slot
    }
    if (!create) return -1
    this.fingerprints[candidate] = fingerprint
    this.resets[candidate] = now + WINDOW_MS
    this.lastUsed[candidate] = now
    this.remaining[candidate] = limit
    return candidate
  }
}
