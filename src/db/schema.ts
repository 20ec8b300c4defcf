import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { CLICK_ID_LENGTH } from '../domain/click-id.ts'
import { COMMISSION_TYPES } from '../domain/commission.ts'
import { FRAUD_REVIEWS, type FraudFlag } from '../domain/fraud.ts'

// Times are epoch milliseconds (integer); money is integer minor units (docs/api.md: amount_cents).
const createdAt = () => integer('created_at').notNull()
const bool = (name: string) => integer(name, { mode: 'boolean' })

/** Key-value settings the server keeps for itself (the generated SVC_SECRET). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

export const accounts = sqliteTable('accounts', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Not unique: one person may own several accounts (docs/decisions.md names none as unique). */
  email: text('email').notNull(),
  name: text('name'),
  suspended: bool('suspended').notNull().default(false),
  createdAt: createdAt(),
})

/** An account's brand profile; programs belong to it (docs/api.md: "advertiser"). */
export const advertisers = sqliteTable('advertisers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  accountId: integer('account_id')
    .notNull()
    .unique()
    .references(() => accounts.id),
  name: text('name'),
  createdAt: createdAt(),
})

/** A program's partner_signup (docs/decisions.md, Partners who join on their own). */
export const PARTNER_SIGNUPS = ['off', 'approval', 'open'] as const
/** A partner's status; partners made by the operator API are active. */
export const PARTNER_STATUSES = ['pending', 'active', 'rejected', 'suspended'] as const
export type PartnerStatus = (typeof PARTNER_STATUSES)[number]
/** How a partner is paid (the portal's payout details form). */
export const PAYOUT_METHODS = ['paypal', 'bank'] as const

export const programs = sqliteTable('programs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  advertiserId: integer('advertiser_id')
    .notNull()
    .references(() => advertisers.id),
  name: text('name').notNull(),
  domain: text('domain').notNull(),
  commissionType: text('commission_type', { enum: COMMISSION_TYPES }).notNull(),
  commissionRate: real('commission_rate').notNull(),
  leadAuth: text('lead_auth', { enum: ['server_required', 'browser_allowed'] })
    .notNull()
    .default('server_required'),
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
  /** Days a commission waits before it is due for payout (docs/decisions.md, Payouts: 0–365). */
  holdingPeriodDays: integer('holding_period_days').notNull().default(30),
  /** The smallest payout, in major units of each currency (50 is USD 50.00, EUR 50.00 or VND 50). */
  minimumPayout: real('minimum_payout').notNull().default(0),
  /** Months after the customer's first sale that a recurring type pays; null pays forever. */
  recurringMonths: integer('recurring_months'),
  /** Whether partners may apply on /join/:program_id: off, approval (pending first) or open. */
  partnerSignup: text('partner_signup', { enum: PARTNER_SIGNUPS }).notNull().default('off'),
  /** What a new commission's fraud flags do (docs/decisions.md, Fraud signals and review): hold it, only flag it, or nothing. */
  fraudReview: text('fraud_review', { enum: FRAUD_REVIEWS }).notNull().default('hold'),
})

/** Program API keys, stored only as SHA-256 hashes; one row per issued key. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    keyHash: text('key_hash').notNull().unique(),
    /** The first characters, kept for the masked display. */
    keyPrefix: text('key_prefix').notNull(),
    createdAt: createdAt(),
    revokedAt: integer('revoked_at'),
    /** Set by the rotation route: when the key was marked, and its deadline. */
    rotationMarkedAt: integer('rotation_marked_at'),
    rotateBy: integer('rotate_by'),
  },
  (t) => [index('api_keys_program').on(t.programId)],
)

/** Account login tokens handed out by the CLI login flow (hash only). */
export const loginTokens = sqliteTable('login_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
  expiresAt: integer('expires_at').notNull(),
})

export const cliSessions = sqliteTable(
  'cli_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    state: text('state').notNull().unique(),
    status: text('status', { enum: ['pending', 'complete', 'consumed'] })
      .notNull()
      .default('pending'),
    accountId: integer('account_id').references(() => accounts.id),
    /** The login token between callback and the one poll that hands it out; cleared then. */
    pendingToken: text('pending_token'),
    /** The client IP that started it: pending sessions are capped per IP (docs/decisions.md, Hostile input). */
    clientIp: text('client_ip'),
    createdAt: createdAt(),
  },
  (t) => [index('cli_sessions_client_ip').on(t.clientIp, t.createdAt)],
)

/**
 * id_tokens that signed a session in, by SHA-256: an id_token is good for one sign-in
 * (docs/decisions.md, Hostile input). A row is kept until the token has expired anyway.
 */
export const usedIdTokens = sqliteTable(
  'used_id_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('used_id_tokens_expiry').on(t.expiresAt)],
)

export const partners = sqliteTable(
  'partners',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    name: text('name'),
    email: text('email'),
    createdAt: createdAt(),
    /** pending (applied), active, rejected or suspended: only an active partner's links attribute. */
    status: text('status', { enum: PARTNER_STATUSES }).notNull().default('active'),
    /** The partner's own terms; null takes the program's. */
    commissionType: text('commission_type', { enum: COMMISSION_TYPES }),
    commissionRate: real('commission_rate'),
    recurringMonths: integer('recurring_months'),
    /** How the partner is paid: paypal or bank, with the details as the partner wrote them. */
    payoutMethod: text('payout_method', { enum: PAYOUT_METHODS }),
    payoutDetails: text('payout_details'),
    /** From the application form (/join): where and how the partner promotes. */
    website: text('website'),
    promotion: text('promotion'),
    /** The short link the applicant asked for: made on approval when it is still free. */
    wishedShortLink: text('wished_short_link'),
    /** Set when the owner deletes the partner: the row stays for its clicks, it is listed nowhere. */
    deletedAt: integer('deleted_at'),
  },
  (t) => [index('partners_program').on(t.programId)],
)

/**
 * The IPs a partner applied or signed in to the portal from, as keyed hashes (HMAC-SHA-256 with
 * SVC_SECRET, src/tracking/ip-hash.ts), never raw: the same_ip fraud signal compares a customer's
 * click and lead IPs with them. One row per partner and IP.
 */
export const partnerIps = sqliteTable(
  'partner_ips',
  {
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    ipHash: text('ip_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.ipHash] })],
)

/** Referral links; partner and program are nullable so that a broken link is reportable (docs/errors.md 400 table). */
export const links = sqliteTable(
  'links',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id').references(() => programs.id),
    partnerId: integer('partner_id').references(() => partners.id, { onDelete: 'set null' }),
    shortLink: text('short_link').notNull().unique(),
    active: bool('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('links_program').on(t.programId)],
)

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
  },
  // No index by program: with sales of many programs in each batch, an index on (program_id, id)
  // made each sale write its program's leaf at COMMIT, a random page (issue 14); a program's sales
  // are found through sale_blocks instead. No index on customer_id either: nothing reads sales by
  // customer (customers are never deleted).
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

/** A commission's review state (docs/decisions.md, Fraud signals and review). */
export const COMMISSION_REVIEWS = ['held', 'approved', 'rejected'] as const

/** The commission ledger: a reversal is a negative entry, never a deleted row. */
export const commissions = sqliteTable(
  'commissions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    kind: text('kind', { enum: ['commission', 'reversal'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    testMode: bool('test_mode').notNull().default(false),
    createdAt: createdAt(),
    /** The entry's place in its partner's hash chain and its hash (docs/ledger.md); set in the unit that books it. */
    chainSeq: integer('chain_seq'),
    chainHash: text('chain_hash'),
    /** The fraud signals the commission raised when it was booked (domain/fraud.ts); a reversal has none. */
    flags: text('flags', { mode: 'json' }).$type<FraudFlag[]>().notNull().default(sql`'[]'`),
    /**
     * held: flagged under fraud_review `hold`, in no payout run until reviewed; approved (back on the
     * holding-period path) or rejected (a reversal entry was written) once reviewed; null otherwise.
     */
    review: text('review', { enum: COMMISSION_REVIEWS }),
    reviewedAt: integer('reviewed_at'),
    /** The reason given with a rejection. */
    reviewReason: text('review_reason'),
  },
  (t) => [
    uniqueIndex('commissions_sale_kind').on(t.saleId, t.kind),
    // The Review page and its count on the tabs: the held entries of a program, a short range.
    index('commissions_held').on(t.programId, t.id).where(sql`review = 'held'`),
    index('commissions_program').on(t.programId, t.createdAt),
    index('commissions_program_id').on(t.programId, t.id),
    // A partner's own ledger (balances, the partner portal) without reading the whole program's.
    index('commissions_partner').on(t.partnerId, t.id),
  ],
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

/** Every received processor event with its outcome; event_id makes replays no-ops. */
export const processorEvents = sqliteTable(
  'processor_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: text('event_id').notNull().unique(),
    programId: integer('program_id').references(() => programs.id),
    type: text('type').notNull(),
    livemode: bool('livemode'),
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    saleId: integer('sale_id').references(() => sales.id),
    createdAt: createdAt(),
  },
  (t) => [index('processor_events_program').on(t.programId, t.createdAt), index('processor_events_program_id').on(t.programId, t.id)],
)

/** Records prepared for a program's synthetic test chain (CLI test-event). */
export const testFixtures = sqliteTable('test_fixtures', {
  programId: integer('program_id')
    .primaryKey()
    .references(() => programs.id),
  partnerId: integer('partner_id')
    .notNull()
    .references(() => partners.id),
  linkId: integer('link_id')
    .notNull()
    .references(() => links.id),
  refreshedAt: integer('refreshed_at').notNull(),
})

/** One row per synthetic chain run, for the 10 per program per hour cap. */
export const chainRuns = sqliteTable(
  'chain_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    createdAt: createdAt(),
  },
  (t) => [index('chain_runs_program').on(t.programId, t.createdAt)],
)

/**
 * One-time sign-in links of the dashboard (account) and the partner portal (partner), stored as
 * SHA-256 hashes; used_at makes a link work once (docs/decisions.md, Dashboard and partner portal).
 */
export const signInLinks = sqliteTable('sign_in_links', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  tokenHash: text('token_hash').notNull().unique(),
  accountId: integer('account_id').references(() => accounts.id),
  partnerId: integer('partner_id').references(() => partners.id),
  createdAt: createdAt(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
})

/** Signed-in browser sessions (cookie svc_session), stored as SHA-256 hashes; revoked on sign-out. */
export const webSessions = sqliteTable('web_sessions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  tokenHash: text('token_hash').notNull().unique(),
  accountId: integer('account_id').references(() => accounts.id),
  partnerId: integer('partner_id').references(() => partners.id),
  createdAt: createdAt(),
  expiresAt: integer('expires_at').notNull(),
  revokedAt: integer('revoked_at'),
})

/**
 * Per program, partner (0: none), UTC day and mode: the funnel counts the dashboard shows, kept
 * by triggers on customers and sales (migration 0005) and, for clicks, by the tracking store once
 * per batch and key (migration 0012), always in the write's own transaction, so that a page never
 * counts a million rows. `day` is epoch ms / 86 400 000.
 */
export const dailyCounts = sqliteTable(
  'daily_counts',
  {
    programId: integer('program_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    day: integer('day').notNull(),
    testMode: integer('test_mode').notNull(),
    clicks: integer('clicks').notNull().default(0),
    /** Clicks that were the first of their IP on their link in their hour (src/tracking/click-counts.ts). */
    uniqueClicks: integer('unique_clicks').notNull().default(0),
    leads: integer('leads').notNull().default(0),
    customers: integer('customers').notNull().default(0),
    sales: integer('sales').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.programId, t.partnerId, t.day, t.testMode] })],
)

/** The money side of daily_counts, per currency: revenue, refunded revenue and the commission ledger's sum. */
export const dailyMoney = sqliteTable(
  'daily_money',
  {
    programId: integer('program_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    day: integer('day').notNull(),
    currency: text('currency').notNull(),
    testMode: integer('test_mode').notNull(),
    revenueCents: integer('revenue_cents').notNull().default(0),
    refundedCents: integer('refunded_cents').notNull().default(0),
    commissionCents: integer('commission_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.programId, t.partnerId, t.day, t.currency, t.testMode] })],
)

/** A payout to one partner in one currency: the net of the ledger entries it holds. */
export const payouts = sqliteTable(
  'payouts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    currency: text('currency').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** How many ledger entries (commissions and reversals) it holds. */
    commissions: integer('commissions').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'canceled'] })
      .notNull()
      .default('pending'),
    reference: text('reference'),
    createdAt: createdAt(),
    paidAt: integer('paid_at'),
    canceledAt: integer('canceled_at'),
    /** The payout's link in its partner's hash chain, and its cancellation's (docs/ledger.md). */
    chainSeq: integer('chain_seq'),
    chainHash: text('chain_hash'),
    cancelSeq: integer('cancel_seq'),
    cancelHash: text('cancel_hash'),
  },
  (t) => [index('payouts_program').on(t.programId, t.id), index('payouts_partner').on(t.partnerId, t.id)],
)

/**
 * The ledger entries of each payout. `status` repeats the payout's so that the partial UNIQUE
 * index can say it: a ledger entry belongs to at most one pending or paid payout (docs/decisions.md,
 * Payouts); a canceled payout keeps its rows for the record and frees its entries.
 */
export const payoutEntries = sqliteTable(
  'payout_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    payoutId: integer('payout_id')
      .notNull()
      .references(() => payouts.id),
    ledgerEntryId: integer('ledger_entry_id')
      .notNull()
      .references(() => commissions.id),
    status: text('status', { enum: ['pending', 'paid', 'canceled'] })
      .notNull()
      .default('pending'),
  },
  (t) => [
    uniqueIndex('payout_entries_once').on(t.ledgerEntryId).where(sql`status <> 'canceled'`),
    index('payout_entries_payout').on(t.payoutId),
  ],
)

/**
 * The live commission ledger added up by what decides each entry's status (domain/payout.ts
 * statusOf): payout is the entry's pending or paid payout ('' for none), pair that of the other
 * entry of its sale ('none' when there is none). Only an entry in no payout whose pair is missing
 * or in a payout, and not held for review, is open (pending or due by time): its row carries the UTC day it was booked
 * (epoch ms / 86400000), so that a read splits pending from due without reading entries; every
 * other row has day -1. Kept in the ledger writes' own transactions: a new entry by the trigger of
 * migration 0009_ledger_balance_triggers, payout runs, payments and cancels by payout-store.ts.
 */
export const ledgerBalances = sqliteTable(
  'ledger_balances',
  {
    programId: integer('program_id').notNull(),
    partnerId: integer('partner_id').notNull(),
    currency: text('currency').notNull(),
    kind: text('kind', { enum: ['commission', 'reversal'] }).notNull(),
    payout: text('payout', { enum: ['', 'pending', 'paid'] }).notNull(),
    pair: text('pair', { enum: ['none', '', 'pending', 'paid'] }).notNull(),
    /** 1 for commissions held for review (never in a payout; their rows carry day -1), else 0. */
    held: integer('held').notNull(),
    day: integer('day').notNull(),
    amountCents: integer('amount_cents').notNull(),
    entries: integer('entries').notNull(),
  },
  (t) => [primaryKey({ columns: [t.programId, t.partnerId, t.currency, t.kind, t.payout, t.pair, t.held, t.day] })],
)

export type Program = typeof programs.$inferSelect
export type ApiKey = typeof apiKeys.$inferSelect
export type Account = typeof accounts.$inferSelect
export type Link = typeof links.$inferSelect
export type Click = typeof clicks.$inferSelect
export type Customer = typeof customers.$inferSelect
export type Sale = typeof sales.$inferSelect
export type Commission = typeof commissions.$inferSelect
export type Payout = typeof payouts.$inferSelect

/** What an email is about (src/outbox/messages.ts writes each). */
export const EMAIL_KINDS = [
  'application_received',
  'application_approved',
  'application_rejected',
  'new_application',
  'payout_paid',
  'sign_in',
  'webhook_disabled',
] as const
export type EmailKind = (typeof EMAIL_KINDS)[number]

/**
 * The email outbox (src/outbox/README.md): a row is written in the transaction of the change that
 * causes it and sent after the commit by the server's sender, which claims due rows for a lease,
 * records each attempt and schedules the next (docs/decisions.md, Email). `to_address` is always an
 * address stored on an account or partner. A body holding a sign-in link (`secret`) is blanked
 * once sent: the link itself is kept nowhere else but as a hash.
 */
export const emails = sqliteTable(
  'emails',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id').references(() => programs.id),
    kind: text('kind', { enum: EMAIL_KINDS }).notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    secret: bool('secret').notNull().default(false),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    claimedUntil: integer('claimed_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: integer('sent_at'),
  },
  (t) => [index('emails_due').on(t.status, t.nextAttemptAt), index('emails_program').on(t.programId, t.id)],
)

/** Outbound webhook event types (docs/decisions.md, Outbound webhooks). */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'sale.created',
  'sale.refunded',
  'commission.created',
  'commission.reversed',
  'commission.held',
  'payout.created',
  'payout.paid',
  'partner.applied',
  'partner.approved',
  'webhook.test',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/**
 * A program's webhook endpoints. `secret` signs (whsec_ + base64 of 32 bytes); during a rotation
 * `previous_secret` signs too until `previous_until`. `failing_since` is the first failure of an
 * unbroken run of them: 3 days of it set the endpoint inactive.
 */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    url: text('url').notNull(),
    events: text('events', { mode: 'json' }).$type<WebhookEventType[]>().notNull(),
    description: text('description'),
    active: bool('active').notNull().default(true),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousUntil: integer('previous_until'),
    failingSince: integer('failing_since'),
    disabledAt: integer('disabled_at'),
    deletedAt: integer('deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_program').on(t.programId)],
)

/** One event (`evt_…`, the same on every attempt): its type and the exact JSON body sent. */
export const webhookEvents = sqliteTable('webhook_events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  eventId: text('event_id').notNull().unique(),
  programId: integer('program_id')
    .notNull()
    .references(() => programs.id),
  type: text('type', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
})

/**
 * The webhook outbox (src/outbox/README.md): one delivery per event and subscribed endpoint,
 * written in the event's transaction; UNIQUE (endpoint, event) so that an event reaches an
 * endpoint through one row, whatever retries happen.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: integer('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    claimedUntil: integer('claimed_until'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: integer('delivered_at'),
  },
  // Both indexes grow at their end as events are made (event rows and times only increase), so
  // that a delivery's insert writes no random page at COMMIT; an endpoint's list reads its index.
  (t) => [
    uniqueIndex('webhook_deliveries_once').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint').on(t.endpointId, t.id),
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
  ],
)

/**
 * A partner's coupon codes (docs/decisions.md, Attribution without the cookie): a sale naming one
 * (coupon_code, or a Stripe promotion code) attributes a customer that has no partner yet.
 * `codeKey` is the code in lower case: codes are unique per program and matched without case.
 */
export const coupons = sqliteTable(
  'coupons',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    code: text('code').notNull(),
    codeKey: text('code_key').notNull(),
    stripePromotionCode: text('stripe_promotion_code'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('coupons_program_code').on(t.programId, t.codeKey),
    index('coupons_program_promotion').on(t.programId, t.stripePromotionCode),
    index('coupons_partner').on(t.partnerId),
  ],
)
export type Coupon = typeof coupons.$inferSelect
