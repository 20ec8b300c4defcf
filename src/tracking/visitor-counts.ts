import { HOUR_MS, inBurst, visitorKey } from '../domain/fraud.ts'
import { hashKey } from '../domain/key-hash.ts'

/** 2^17 keys (link, IP, an IPv6 address by its /64, and mode) in 1.5 MB, allocated once: more than one server sees in an hour. */
const SLOTS = 1 << 17
/** How many neighbouring slots a key may occupy (linear probing). */
const PROBES = 16
const MAX_COUNT = 0xffff

/** What the click path learns of a click from its link's and IP's counts. */
export interface ClickSeen {
  /** The first click of this IP on this link in this UTC hour: a unique click (daily_counts.unique_clicks). */
  unique: boolean
  /** The link had over 50 clicks from this IP in the hour before this one (domain/fraud.ts, click_burst). */
  burst: boolean
}

/**
 * Per link, IP and mode, the clicks of the current UTC hour and of the one before, in a fixed
 * table of typed arrays indexed by a seeded hash of the IP (as the rate limiter's): no string,
 * object or Map entry is kept per visitor, memory never grows, a click allocates nothing here and
 * nothing sweeps. A key is found by its slot and an independent fingerprint. When every slot of a
 * key's neighbourhood holds a key seen in the last two hours, the one with the fewest clicks is
 * given up, so that a flood of distinct IPs evicts quiet visitors, not the IP that bursts: a quiet
 * visitor evicted this way may count as unique twice in an hour. The counts live in the process:
 * a restart starts them afresh (at most one hour of bursts is forgotten).
 */
export class VisitorCounts {
  // Allocated with the first click, not at start: an idle server keeps none of it resident (issue 36).
  private fingerprints = new Uint32Array(0)
  private hours = new Int32Array(0)
  private current = new Uint16Array(0)
  private previous = new Uint16Array(0)
  private readonly mask: number
  private readonly seed = crypto.getRandomValues(new Uint32Array(2))
  private readonly hashes = new Uint32Array(2)

  constructor(slots = SLOTS) {
    let size = PROBES
    while (size < slots) size *= 2
    this.mask = size - 1
  }

  /** The table's memory in bytes: fixed by its size, allocated with the first click. */
  get bytes(): number {
    return (this.mask + 1) * (4 + 4 + 2 + 2)
  }

  private allocate(): void {
    const size = this.mask + 1
    this.fingerprints = new Uint32Array(size)
    this.hours = new Int32Array(size)
    this.current = new Uint16Array(size)
    this.previous = new Uint16Array(size)
  }

  /** Counts a click of `ip` on `linkId` at `now` and tells whether it is unique and in a burst. */
  see(linkId: number, testMode: boolean, ip: string, now: number): ClickSeen {
    if (this.fingerprints.length === 0) this.allocate()
    const hour = Math.floor(now / HOUR_MS)
    // The link and mode salt the seed: one IP on two links is two keys.
    hashKey(visitorKey(ip), this.seed[0] ^ Math.imul(linkId * 2 + (testMode ? 1 : 0), 0x9e3779b1), this.seed[1], this.hashes)
    const home = this.hashes[0]
    const fingerprint = this.hashes[1]
    let victim = -1
    let victimWeight = Infinity
    for (let probe = 0; probe < PROBES; probe++) {
      const slot = (home + probe) & this.mask
      const held = this.fingerprints[slot]
      if (held === fingerprint) return this.count(slot, hour, now)
      const weight = held === 0 ? -1 : this.weight(slot, hour)
      if (weight < victimWeight) {
        victim = slot
        victimWeight = weight
      }
      // Keys are placed at the first usable slot, so none lies past a slot never used.
      if (held === 0) break
    }
    this.fingerprints[victim] = fingerprint
    this.hours[victim] = hour
    this.current[victim] = 1
    this.previous[victim] = 0
    return { unique: true, burst: false }
  }

  /** A known key's click: its hour rolls over first when it has ended. */
  private count(slot: number, hour: number, now: number): ClickSeen {
    const last = this.hours[slot]
    let unique = false
    if (last !== hour) {
      this.previous[slot] = last === hour - 1 ? this.current[slot] : 0
      this.current[slot] = 0
      this.hours[slot] = hour
      unique = true
    }
    // The clicks before this one decide (domain/fraud.ts inBurst); then this one is counted.
    const before = this.current[slot]
    this.current[slot] = Math.min(before + 1, MAX_COUNT)
    return { unique, burst: inBurst(this.previous[slot], before, now) }
  }

  /** How much a slot's key is worth keeping: its clicks in the last two hours (0 when older). */
  private weight(slot: number, hour: number): number {
    const last = this.hours[slot]
    if (last === hour) return this.current[slot] + this.previous[slot]
    return last === hour - 1 ? this.current[slot] : 0
  }
}
