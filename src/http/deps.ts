import type { Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import type { KeyMatch } from '../db/credentials.ts'
import type { Database } from '../db/open.ts'
import type { DueDelivery } from '../db/webhook-store.ts'
import type { Mail } from '../outbox/mail.ts'
import type { Rails } from '../payouts/rails.ts'
import type { VisitorCounts } from '../tracking/visitor-counts.ts'
import type { RateLimiter } from './pipeline/rate-limit.ts'

/** Everything the HTTP layer is built from; main.ts and the test helpers assemble it. */
export interface Deps {
  config: Config
  clock: Clock
  /** The writer (every write runs in one of its units) and the stores (src/db/stores.ts): all SQL is behind them. */
  database: Database
  limiter: RateLimiter
  /** Clicks per link and IP in the last hours (src/tracking/visitor-counts.ts): unique clicks and click_burst. */
  visitors: VisitorCounts
  /** Finds the program of an API key (stores.programs.findKey: prepared once, kept in the catalog). */
  findKey: (token: string) => KeyMatch | null
  /** Signs server-made tokens (id_tokens): SVC_SECRET or the one generated at first start. */
  secret: string
  /** The minified tracker script served at GET /tracker.js. */
  trackerSource: string
  log: (line: Record<string, unknown>) => void
  /**
   * The first run (docs/decisions.md): while no account exists, the setup code printed at start
   * (kept only in memory); null once an account exists or was made through /setup.
   */
  firstRun: { code: string | null }
  /** Email (docs/decisions.md, Email): on when SMTP_URL is set; use cases queue rows and wake the sender. */
  mail: Mail
  /** The webhook outbox's pool: woken when a route made deliveries due (retry); the test route's attempt. */
  webhookPool: { wake(): void; attemptNow(row: DueDelivery): Promise<void> }
  /** Payout rails (src/payouts): those configured, and the sender to wake once a send is recorded. */
  payoutRails: Rails
  payoutSender: { wake(): void }
  /** The import job (src/imports/importer.ts): woken when a route queued an import. */
  importRunner?: { wake(): void; cancel(importId: number, write: (now: number) => void): Promise<boolean> }
  /** The runtime drops a small body the app did not read (Runtime.discardsUnreadBodies); unset: the app drains it. */
  discardsUnreadBodies?: boolean
}
