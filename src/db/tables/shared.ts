import { integer } from 'drizzle-orm/sqlite-core'

// Times are epoch milliseconds (integer); money is integer minor units (docs/api.md: amount_cents).
export const createdAt = () => integer('created_at').notNull()
export const bool = (name: string) => integer(name, { mode: 'boolean' })

/** The retry state of an outbox row (emails, webhook deliveries; src/outbox/README.md): tries, the next one, the sender's lease. */
export const attemptColumns = () => ({
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: integer('next_attempt_at').notNull(),
  claimedUntil: integer('claimed_until'),
})
