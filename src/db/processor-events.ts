import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Connection } from './open.ts'
import { customers, processorCustomers, processorEvents, programs, type Program } from './schema.ts'

const p = sql.placeholder

function build({ db }: Connection) {
  return {
    programOfAccount: db
      .select()
      .from(programs)
      .where(eq(programs.stripeAccountId, p('account')))
      .prepare(),
    claim: db
      .insert(processorEvents)
      .values({
        eventId: p('eventId'),
        programId: p('programId'),
        type: p('type'),
        // Nullable boolean: Drizzle's boolean encoder would turn null into 0, so the caller encodes it.
        livemode: sql`${p('livemode')}`,
        outcome: 'received',
        createdAt: p('createdAt'),
      })
      .returning({ id: processorEvents.id })
      .prepare(),
    forgetUnrouted: db
      .delete(processorEvents)
      .where(and(eq(processorEvents.eventId, p('eventId')), isNull(processorEvents.programId)))
      .prepare(),
    customerOf: db
      .select({ customerKey: customers.customerKey, clickId: customers.clickId })
      .from(processorCustomers)
      .innerJoin(customers, eq(customers.id, processorCustomers.customerId))
      .where(and(eq(processorCustomers.programId, p('programId')), eq(processorCustomers.processorCustomer, p('processorCustomer'))))
      .prepare(),
    remember: db
      .insert(processorCustomers)
      .values({ programId: p('programId'), processorCustomer: p('processorCustomer'), customerId: p('customerId') })
      .onConflictDoNothing()
      .prepare(),
    settle: db
      .update(processorEvents)
      .set({ outcome: p('outcome') as never, detail: p('detail') as never, saleId: p('saleId') as never })
      .where(eq(processorEvents.id, p('id')))
      .prepare(),
  }
}

type Statements = ReturnType<typeof build>

/** How an event ended, as the operator's events list shows it. */
export type EventOutcome = 'attributed' | 'settled' | 'unattributed' | 'refunded' | 'ignored' | 'failed'

export interface ReceivedEvent {
  eventId: string
  programId: number | null
  type: string
  livemode: boolean | null
  createdAt: number
}

/** Received payment-processor events (issue 6) and the Connect lookup of a program by its Stripe account. */
export class ProcessorEventStore {
  private readonly s: Statements

  constructor(connection: Connection) {
    this.s = build(connection)
  }

  /** The program whose stripe_account_id is `account` (Connect routing), or null. */
  programOfAccount(account: string): Program | null {
    return this.s.programOfAccount.get({ account }) ?? null
  }

  /**
   * Stores the event before its effects, inside the caller's writer unit: the UNIQUE event_id
   * throws on a replay (uniqueViolation: `event_id`), so that the unit rolls back and nothing else runs. Returns the row id.
   */
  claim(event: ReceivedEvent): number {
    // A Connect event stored before any program claimed its account is not a replay once one
    // does: Stripe's (or the owner's) re-send is then applied.
    if (event.programId !== null) this.s.forgetUnrouted.run({ eventId: event.eventId })
    const livemode = event.livemode === null ? null : event.livemode ? 1 : 0
    return this.s.claim.get({ ...event, livemode })!.id
  }

  /** The keys of the customer a processor customer (`paddle:ctm_…`) first paid as, or null (docs/decisions.md, renewals). */
  customerOf(programId: number, processorCustomer: string): { customerKey: string | null; clickId: string | null } | null {
    return this.s.customerOf.get({ programId, processorCustomer }) ?? null
  }

  /** Remembers the customer a processor customer paid as; the first one stays. Inside the caller's unit. */
  rememberCustomer(programId: number, processorCustomer: string, customerId: number): void {
    this.s.remember.run({ programId, processorCustomer, customerId })
  }

  /** Writes the outcome of a claimed event. */
  settle(id: number, outcome: EventOutcome, detail: string, saleId: number | null): void {
    this.s.settle.run({ id, outcome, detail, saleId })
  }
}
