import type { Clock } from '../clock.ts'
import type { Database } from '../db/open.ts'

/** What the tracking paths need: the database (all writes through its writer) and the clock. */
export interface TrackingDeps {
  database: Database
  clock: Clock
}
