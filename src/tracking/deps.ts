import type { Clock } from '../clock.ts'
import type { Database } from '../db/open.ts'
import type { VisitorCounts } from './visitor-counts.ts'

/** What the tracking paths need: the database (all writes through its writer) and the clock. */
export interface TrackingDeps {
  database: Database
  clock: Clock
  /** Keys the IP hashes of the same_ip signal (src/tracking/ip-hash.ts): SVC_SECRET or the generated one. */
  secret: string
  /** Clicks per link and IP in the last hours, in memory: unique clicks and the click_burst signal. */
  visitors: VisitorCounts
}
