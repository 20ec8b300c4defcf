// What the tracking endpoints record: clicks, customers, sales, refunds and payment-processor events.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { CLICK_ID_LENGTH } from '../../domain/click-id.ts'
import { bool, createdAt } from './shared.ts'
import { links, partners, programs } from './programs.ts'

/**
 * One row per click event. A returning visitor's click repeats the first click_id
 * (first click wins), so click_id is not unique: the earliest row is the visitor's first click.
 * A click_id issued since migration 0012 carries its first row's id, sealed (src/domain/click-id.ts):
 * it is found by that id, with no index to write per click (issue 14). The row ids are assigned
 * by the store (max + 1, never reused, since no click is ever deleted), so no AUTOINCREMENT either.
 */
export const clicks = sqliteTable(
  'clicks',
  {
    id: integer('id').primaryKey(),
    clickId: text('click_id').notNull(),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    linkId: integer('link_id')
      .notNull()
      .references(() => links.id),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    testMode: bool('test_mode').notNull().default(false),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    /**
     * What the click path saw that a fraud rule needs (domain/fraud.ts CLICK_SIGNALS bits: an ad-click
     * id in the landing URL, a burst of clicks from its IP); null, which costs no byte, for none.
     */
    signals: integer('signals'),
    // No index by program: every click would write its program's tail page at each COMMIT (issue 14).
    // A program's click count is the sum of its daily_counts rows, kept in the same transaction.
  },
  // Ids issued before migration 0012 (of other lengths than today's) are found by this partial index,
  // which today's ids never enter.
  (t) => [
    index('clicks_click_id_legacy')
      .on(t.clickId)
      .where(sql`length(${t.clickId}) <> ${sql.raw(String(CLICK_ID_LENGTH))}`),
  ],
)

export const customers = sqliteTable(
  'customers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    customerKey: text('customer_key'),
    clickId: text('click_id'),
    partnerId: integer('partner_id').references(() => partners.id),
    linkId: integer('link_id').references(() => links.id),
    status: text('status', { enum: ['provisional', 'lead', 'converted'] }).notNull(),
    email: text('email'),
    testMode: bool('test_mode').notNull().default(false),
    /** When the customer's first click happened: rule 4's window starts here (kept to spare a read per sale). */
    clickedAt: integer('clicked_at'),
    leadAt: integer('lead_at'),
    /** The first attributed sale; once set, later payments skip rule 4 and non-recurring types stop paying. */
    convertedAt: integer('converted_at'),
    createdAt: createdAt(),
    /** The IP the lead was reported from, as a keyed hash (src/tracking/ip-hash.ts), for the same_ip signal. */
    leadIpHash: text('lead_ip_hash'),
  },
  (t) => [
    uniqueIndex('customers_program_key').on(t.programId, t.customerKey),
    uniqueIndex('customers_program_click').on(t.programId, t.clickId),
    // The read route's pages: program_id then id order, so a page is an index range (issue 10).
    index('customers_program').on(t.programId, t.id),
    // The "Customer does not belong to this program" answer looks a key up across programs.
    index('customers_key').on(t.customerKey),
  ],
)

/**
 * The processor customer (`paddle:ctm_…`, `polar:<id>`, `lemonsqueezy:<id>`) a customer paid as at
 * its first processor payment (docs/decisions.md, Selling anywhere: renewals), so that a renewal
 * that carries no custom data is the same customer. Written once; the first customer keeps it.
 */
export const processorCustomers = sqliteTable(
  'processor_customers',
  {
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    processorCustomer: text('processor_customer').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
  },
  (t) => [primaryKey({ columns: [t.programId, t.processorCustomer] })],
)

/** Sale events. transaction_id is docs/api.md's processor_event_id: unique globally. */
export const sales = sqliteTable(
  'sales',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    customerId: integer('customer_id').references(() => customers.id),
    transactionId: text('transaction_id').notNull().unique(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    occurredAt: integer('occurred_at').notNull(),
    provider: text('provider'),
    providerPaymentId: text('provider_payment_id'),
    livemode: bool('livemode'),
    testMode: bool('test_mode').notNull().default(false),
    status: text('status', { enum: ['recorded', 'refunded', 'charged_back'] })
      .notNull()
      .default('recorded'),
    /** The attribution record: which click, partner and link decided it, and by which rule. */
    attribution: text('attribution', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    /** The tool and commission id an import brought the sale and its commission from; null for svc's own. */
    source: text('source'),
    sourceId: text('source_id'),
  },
  // No index by program: with sales of many programs in each batch, an index on (program_id, id)
  // made each sale write its program's leaf at COMMIT, a random page (issue 14); a program's sales
  // are found through sale_blocks instead. No index on customer_id either: nothing reads sales by
  // customer (customers are never deleted). The imported sales' index is partial: a live sale
  // (source null) writes no page of it.
  (t) => [uniqueIndex('sales_source').on(t.programId, t.source, t.sourceId).where(sql`source IS NOT NULL`)],
)

/**
 * Which programs have sales in each block of 4,096 consecutive sale ids (SALE_BLOCK_BITS, sale-pages.ts):
 * the read routes and the dashboard page a program's sales by looking its blocks up newest first
 * and reading each block's id range, so that a sale writes no per-program index page (issue 14).
 * Kept by the sale_block trigger (migration 0011) in the sale's own transaction; a row is written
 * once per program and block, at the end of the tree (block first).
 */
export const saleBlocks = sqliteTable(
  'sale_blocks',
  {
    block: integer('block').notNull(),
    programId: integer('program_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.block, t.programId] })],
)

export const refunds = sqliteTable('refunds', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  saleId: integer('sale_id')
    .notNull()
    .unique()
    .references(() => sales.id),
  reason: text('reason', { enum: ['refund', 'chargeback'] }).notNull(),
  refundReason: text('refund_reason'),
  createdAt: createdAt(),
})

/**
 * Every received processor event with its outcome; (event_id, program) makes replays no-ops. An
 * event id is the processor's, and a guessable one (Lemon Squeezy's counting ids) signed by another
 * program's secret must not pass for this program's replay: the key is per program. An event that
 * reached no program (program NULL) may be kept twice; it is forgotten once one program takes it.
 */
export const processorEvents = sqliteTable(
  'processor_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: text('event_id').notNull(),
    programId: integer('program_id').references(() => programs.id),
    type: text('type').notNull(),
    livemode: bool('livemode'),
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    saleId: integer('sale_id').references(() => sales.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('processor_events_once').on(t.eventId, t.programId),
    index('processor_events_program').on(t.programId, t.createdAt),
    index('processor_events_program_id').on(t.programId, t.id),
  ],
)

export type Click = typeof clicks.$inferSelect
export type Customer = typeof customers.$inferSelect
export type Sale = typeof sales.$inferSelect
