const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** docs/decisions.md, Email: the waits after each failed attempt, then every 6 hours for 3 days. */
const EMAIL_WAITS = [10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR]
const EMAIL_THEN = 6 * HOUR
const EMAIL_FOR = 72 * HOUR

/** docs/decisions.md, Outbound webhooks: the waits after each failed attempt, then `failed`. */
const WEBHOOK_WAITS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]

/**
 * When an email is tried again after its `attempts`-th failed attempt at `now`, or null when it
 * has failed for good (the next try would fall past 3 days after it was queued).
 */
export function emailRetryAt(attempts: number, createdAt: number, now: number): number | null {
  const next = now + (EMAIL_WAITS[attempts - 1] ?? EMAIL_THEN)
  return next <= createdAt + EMAIL_FOR ? next : null
}

/** When a webhook delivery is tried again after its `attempts`-th failed attempt at `now`, or null when it has failed for good. */
export function webhookRetryAt(attempts: number, now: number): number | null {
  const wait = WEBHOOK_WAITS[attempts - 1]
  return wait === undefined ? null : now + wait
}
