import { and, count, desc, eq, gt } from 'drizzle-orm'
import type { Connection } from './open.ts'
import { partnerStripeAccounts } from './schema.ts'

/**
 * The Stripe accounts "Connect with Stripe" made for partners (src/http/pages/connect-stripe.ts):
 * which one a partner goes on with, and how many they made lately. Writes run inside a writer unit.
 */
export class ConnectAccountStore {
  constructor(private readonly connection: Connection) {}

  /** Keeps that `accountId` was made for the partner at `now`. */
  made(partnerId: number, accountId: string, now: number): void {
    this.connection.db.insert(partnerStripeAccounts).values({ partnerId, accountId, createdAt: now }).run()
  }

  /** The account made last for the partner, or null. */
  latest(partnerId: number): string | null {
    const { db } = this.connection
    const row = db
      .select({ accountId: partnerStripeAccounts.accountId })
      .from(partnerStripeAccounts)
      .where(eq(partnerStripeAccounts.partnerId, partnerId))
      .orderBy(desc(partnerStripeAccounts.id))
      .limit(1)
      .get()
    return row?.accountId ?? null
  }

  /** How many accounts were made for the partner after `since` (epoch ms). */
  madeSince(partnerId: number, since: number): number {
    const { db } = this.connection
    const row = db
      .select({ n: count() })
      .from(partnerStripeAccounts)
      .where(and(eq(partnerStripeAccounts.partnerId, partnerId), gt(partnerStripeAccounts.createdAt, since)))
      .get()
    return row?.n ?? 0
  }
}
