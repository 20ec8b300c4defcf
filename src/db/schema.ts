import { sql } from 'drizzle-orm'
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

// Times are epoch milliseconds (integer); money is integer minor units (SPEC.md: amount_cents).
const createdAt = () => integer('created_at').notNull()
const bool = (name: string) => integer(name, { mode: 'boolean' })

/** Key-value settings the server keeps for itself (the generated SVC_SECRET). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

export const accounts = sqliteTable('accounts', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Not unique: one person may own several accounts (DECISIONS.md names none as unique). */
  email: text('email').notNull(),
  name: text('name'),
  suspended: bool('suspended').notNull().default(false),
  createdAt: createdAt(),
})

/** An account's brand profile; programs belong to it (SPEC.md: "advertiser"). */
export const advertisers = sqliteTable('advertisers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  accountId: integer('account_id').notNull().unique().references(() => accounts.id),
  name: text('name'),
  createdAt: createdAt(),
})

export const programs = sqliteTable('programs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  advertiserId: integer('advertiser_id').notNull().references(() => advertisers.id),
  name: text('name').notNull(),
  domain: text('domain').notNull(),
  commissionType: text('commission_type', { enum: ['percent', 'fixed', 'recurring_percent', 'recurring_fixed'] }).notNull(),
  commissionRate: real('commission_rate').notNull(),
  leadAuth: text('lead_auth', { enum: ['server_required', 'browser_allowed'] }).notNull().default('server_required'),
  attributionWindowDays: integer('attribution_window_days').notNull().default(60),
  /** JSON array of exact origins ("https://shop.example", "http://localhost:3000"). */
  allowedOrigins: text('allowed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  /**
   * The processor mode the program accepts: true live only, false test only, null (the
   * default) both. Events of the other mode are stored as ignored (issue 6).
   */
  livemode: bool('livemode'),
  stripeAccountId: text('stripe_account_id').unique(),
  /** JSON array of signing secrets; several while one is being rotated. */
  stripeWebhookSecrets: text('stripe_webhook_secrets', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  createdAt: createdAt(),
})

/** Program API keys, stored only as SHA-256 hashes; one row per issued key. */
export const apiKeys = sqliteTable('api_keys', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  programId: integer('program_id').notNull().references(() => programs.id),
  keyHash: text('key_hash').notNull().unique(),
  /** The first characters, kept for the masked display. */
  keyPrefix: text('key_prefix').notNull(),
  createdAt: createdAt(),
  revokedAt: integer('revoked_at'),
  /** Set by the rotation route: when the key was marked, and its deadline. */
  rotationMarkedAt: integer('rotation_marked_at'),
  rotateBy: integer('rotate_by'),
}, (t) => [index('api_keys_program').on(t.programId)])

/** Account login tokens handed out by the CLI login flow (hash only). */
export const loginTokens = sqliteTable('login_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  accountId: integer('account_id').notNull().references(() => accounts.id),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
  expiresAt: integer('expires_at').notNull(),
})

export const cliSessions = sqliteTable('cli_sessions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  state: text('state').notNull().unique(),
  status: text('status', { enum: ['pending', 'complete', 'consumed'] }).notNull().default('pending'),
  accountId: integer('account_id').references(() => accounts.id),
  /** The login token between callback and the one poll that hands it out; cleared then. */
  pendingToken: text('pending_token'),
  createdAt: createdAt(),
})

export const partners = sqliteTable('partners', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  programId: integer('program_id').notNull().references(() => programs.id),
  name: text('name'),
  email: text('email'),
  createdAt: createdAt(),
}, (t) => [index('partners_program').on(t.programId)])

/** Referral links; partner and program are nullable so that a broken link is reportable (SPEC.md 400 table). */
export const links = sqliteTable('links', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  programId: integer('program_id').references(() => programs.id),
  partnerId: integer('partner_id').references(() => partners.id, { onDelete: 'set null' }),
  shortLink: text('short_link').notNull().unique(),
  active: bool('active').notNull().default(true),
  createdAt: createdAt(),
}, (t) => [index('links_program').on(t.programId)])

/**
 * One row per click event. A returning visitor's click repeats the first click_id
 * (first click wins), so click_id is not unique: the earliest row is the visitor's first click.
 */
export const clicks = sqliteTable('clicks', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  clickId: text('click_id').notNull(),
  programId: integer('program_id').notNull().references(() => programs.id),
  linkId: integer('link_id').notNull().references(() => links.id),
  partnerId: integer('partner_id').notNull().references(() => partners.id),
  testMode: bool('test_mode').notNull().default(false),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: createdAt(),
}, (t) => [index('clicks_click_id').on(t.clickId), index('clicks_program').on(t.programId, t.createdAt)])

export const customers = sqliteTable('customers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  programId: integer('program_id').notNull().references(() => programs.id),
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
}, (t) => [
  uniqueIndex('customers_program_key').on(t.programId, t.customerKey),
  uniqueIndex('customers_program_click').on(t.programId, t.clickId),
  // The read route's pages: program_id then id order, so a page is an index range (issue 10).
  index('customers_program').on(t.programId, t.id),
  // The "Customer does not belong to this program" answer looks a key up across programs.
  index('customers_key').on(t.customerKey),
])

/** Sale events. transaction_id is SPEC.md's processor_event_id: unique globally. */
export const sales = sqliteTable('sales', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  programId: integer('program_id').notNull().references(() => programs.id),
  customerId: integer('customer_id').references(() => customers.id),
  transactionId: text('transaction_id').notNull().unique(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  occurredAt: integer('occurred_at').notNull(),
  provider: text('provider'),
  providerPaymentId: text('provider_payment_id'),
  livemode: bool('livemode'),
  testMode: bool('test_mode').notNull().default(false),
  status: text('status', { enum: ['recorded', 'refunded', 'charged_back'] }).notNull().default('recorded'),
  /** The attribution record: which click, partner and link decided it, and by which rule. */
  attribution: text('attribution', { mode: 'json' }).$type<Record<string, unknown>>(),
  createdAt: createdAt(),
}, (t) => [
  // The read route pages by id: (program_id, created_at) made SQLite sort a program's every sale per page (issue 10).
  index('sales_program').on(t.programId, t.id),
  index('sales_customer').on(t.customerId),
])

/** The commission ledger: a reversal is a negative entry, never a deleted row. */
export const commissions = sqliteTable('commissions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  programId: integer('program_id').notNull().references(() => programs.id),
  saleId: integer('sale_id').notNull().references(() => sales.id),
  partnerId: integer('partner_id').notNull().references(() => partners.id),
  kind: text('kind', { enum: ['commission', 'reversal'] }).notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  testMode: bool('test_mode').notNull().default(false),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('commissions_sale_kind').on(t.saleId, t.kind), index('commissions_program').on(t.programId, t.id)])

export const refunds = sqliteTable('refunds', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  saleId: integer('sale_id').notNull().unique().references(() => sales.id),
  reason: text('reason', { enum: ['refund', 'chargeback'] }).notNull(),
  refundReason: text('refund_reason'),
  createdAt: createdAt(),
})

/** Every received processor event with its outcome; event_id makes replays no-ops. */
export const processorEvents = sqliteTable('processor_events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  eventId: text('event_id').notNull().unique(),
  programId: integer('program_id').references(() => programs.id),
  type: text('type').notNull(),
  livemode: bool('livemode'),
  outcome: text('outcome').notNull(),
  detail: text('detail'),
  saleId: integer('sale_id').references(() => sales.id),
  createdAt: createdAt(),
}, (t) => [index('processor_events_program').on(t.programId, t.id)])

/** Records prepared for a program's synthetic test chain (CLI test-event). */
export const testFixtures = sqliteTable('test_fixtures', {
  programId: integer('program_id').primaryKey().references(() => programs.id),
  partnerId: integer('partner_id').notNull().references(() => partners.id),
  linkId: integer('link_id').notNull().references(() => links.id),
  refreshedAt: integer('refreshed_at').notNull(),
})

/** One row per synthetic chain run, for the 10 per program per hour cap. */
export const chainRuns = sqliteTable('chain_runs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  programId: integer('program_id').notNull().references(() => programs.id),
  createdAt: createdAt(),
}, (t) => [index('chain_runs_program').on(t.programId, t.createdAt)])

export type Program = typeof programs.$inferSelect
export type ApiKey = typeof apiKeys.$inferSelect
export type Account = typeof accounts.$inferSelect
export type Link = typeof links.$inferSelect
export type Click = typeof clicks.$inferSelect
export type Customer = typeof customers.$inferSelect
export type Sale = typeof sales.$inferSelect
export type Commission = typeof commissions.$inferSelect
