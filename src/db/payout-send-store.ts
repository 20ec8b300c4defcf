import { randomBytes } from 'node:crypto'
import { and, asc, eq, inArray, lte, ne, sql } from 'drizzle-orm'
import type { PayoutRail, SendItem } from '../domain/payout-method.ts'
import type { Connection } from './open.ts'
import { partners, payoutSends, payouts, settings, type Payout, type PayoutSend } from './schema.ts'

/** A pending payout a rail could send, with its partner's method and details. */
export interface SendablePayout {
  payout: Payout
  partnerName: string | null
  payoutMethod: string | null
  payoutDetails: string | null
}

/**
 * The sends of payouts to a rail (src/payouts/send.ts): what may be sent, the record made before
 * anything leaves, and the rail's answers. Writes run inside a writer unit.
 */
export class PayoutSendStore {
  constructor(private readonly connection: Connection) {}

  /**
   * This installation's payout id (docs/payouts.md, Two servers, one provider account): random,
   * made on first use and kept in the database, so that a backup restored carries it (and resends
   * with the same keys) while another database on the same provider account never meets its keys.
   */
  installationId(): string {
    const { db } = this.connection
    const stored = db.select().from(settings).where(eq(settings.key, 'payout_installation')).get()
    if (stored) return stored.value
    db.insert(settings)
      .values({ key: 'payout_installation', value: randomBytes(8).toString('hex') })
      .onConflictDoNothing()
      .run()
    return db.select().from(settings).where(eq(settings.key, 'payout_installation')).get()!.value
  }

  /** The program's pending payouts (only `payoutIds` when given), oldest first, with their partner's payout details. */
  pendingWithDetails(programId: number, payoutIds?: number[]): SendablePayout[] {
    const { db } = this.connection
    return db
      .select({ payout: payouts, partnerName: partners.name, payoutMethod: partners.payoutMethod, payoutDetails: partners.payoutDetails })
      .from(payouts)
      .innerJoin(partners, eq(partners.id, payouts.partnerId))
      .where(
        and(
          eq(payouts.programId, programId),
          eq(payouts.status, 'pending'),
          payoutIds === undefined ? undefined : inArray(payouts.id, payoutIds.length ? payoutIds : [0]),
        ),
      )
      .orderBy(asc(payouts.id))
      .all()
  }

  /**
   * Records one send and makes its payouts `processing` (they must be pending: the caller read them
   * in the same unit). Throws the UNIQUE violation of payout_sends_key when the key was used.
   */
  record(programId: number, rail: PayoutRail, currency: string, key: string, items: SendItem[], now: number): PayoutSend {
    const { db } = this.connection
    const send = db
      .insert(payoutSends)
      .values({ programId, rail, currency, idempotencyKey: key, items, nextAttemptAt: now, createdAt: now })
      .returning()
      .get()
    db.update(payouts)
      .set({ status: 'processing', sendId: send.id })
      .where(
        inArray(
          payouts.id,
          items.map((i) => i.payoutId),
        ),
      )
      .run()
    return send
  }

  /** Whether any send is not done (to send or to poll): the server loads its sender at start only then. */
  anyOpen(): boolean {
    return this.connection.client.prepare("SELECT 1 FROM payout_sends WHERE state <> 'done' LIMIT 1").get() != null
  }

  /** Whether a send is due at `now`: a cheap read that spares an idle server its write units. */
  anyDue(now: number): boolean {
    const { db } = this.connection
    return (
      db
        .select({ id: payoutSends.id })
        .from(payoutSends)
        .where(and(ne(payoutSends.state, 'done'), lte(payoutSends.nextAttemptAt, now)))
        .limit(1)
        .get() !== undefined
    )
  }

  /** The sends due at `now` (to send, or to poll), oldest first. */
  due(now: number, limit = 20): PayoutSend[] {
    const { db } = this.connection
    return db
      .select()
      .from(payoutSends)
      .where(and(ne(payoutSends.state, 'done'), lte(payoutSends.nextAttemptAt, now)))
      .orderBy(asc(payoutSends.id))
      .limit(limit)
      .all()
  }

  find(sendId: number): PayoutSend | null {
    return this.connection.db.select().from(payoutSends).where(eq(payoutSends.id, sendId)).get() ?? null
  }

  /** The payouts of a send still processing. */
  processingOf(sendId: number): Payout[] {
    const { db } = this.connection
    return db
      .select()
      .from(payouts)
      .where(and(eq(payouts.sendId, sendId), eq(payouts.status, 'processing')))
      .all()
  }

  /** The rail has the send (its batch or transfer `providerId`); polled again at `nextAt`, or done when nothing is left to hear. */
  accepted(sendId: number, providerId: string | null, nextAt: number): void {
    const { db } = this.connection
    db.update(payoutSends)
      .set({
        state: 'polling',
        providerId: sql`coalesce(${providerId}, ${payoutSends.providerId})`,
        nextAttemptAt: nextAt,
        lastError: null,
      })
      .where(eq(payoutSends.id, sendId))
      .run()
  }

  /** An attempt that did not get the rail's answer: tried again at `nextAt` with the same key. */
  retryLater(sendId: number, error: string, nextAt: number): void {
    const { db } = this.connection
    db.update(payoutSends)
      .set({ attempts: sql`${payoutSends.attempts} + 1`, lastError: error.slice(0, 500), nextAttemptAt: nextAt })
      .where(eq(payoutSends.id, sendId))
      .run()
  }

  /** Nothing of the send is processing any more. */
  done(sendId: number): void {
    this.connection.db.update(payoutSends).set({ state: 'done' }).where(eq(payoutSends.id, sendId)).run()
  }

  /** The sends of a program not yet done, with their last error (the Payouts page). */
  openSends(programId: number): PayoutSend[] {
    const { db } = this.connection
    return db
      .select()
      .from(payoutSends)
      .where(and(eq(payoutSends.programId, programId), ne(payoutSends.state, 'done')))
      .orderBy(asc(payoutSends.id))
      .all()
  }
}
