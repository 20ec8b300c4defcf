// Programs and their partners: keys, links, coupons, the partners' known IPs, the CLI test chain's fixtures.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { COMMISSION_TYPES } from '../../domain/commission.ts'
import { DEFAULT_CURRENCIES } from '../../domain/currency.ts'
import { FRAUD_REVIEWS } from '../../domain/fraud.ts'
import { KEY_SCOPES } from '../../domain/key-scope.ts'
import { PAYOUT_METHODS } from '../../domain/payout-method.ts'
import { bool, createdAt } from './shared.ts'
import { advertisers } from './accounts.ts'

/** A program's partner_signup (docs/decisions.md, Partners who join on their own). */
export const PARTNER_SIGNUPS = ['off', 'approval', 'open'] as const
/** A partner's status; partners made by the operator API are active. */
export const PARTNER_STATUSES = ['pending', 'active', 'rejected', 'suspended'] as const
export type PartnerStatus = (typeof PARTNER_STATUSES)[number]

export const programs = sqliteTable('programs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  advertiserId: integer('advertiser_id')
    .notNull()
    .references(() => advertisers.id),
  name: text('name').notNull(),
  domain: text('domain').notNull(),
  /** The site's scheme, host and port (domain/site.ts): links are made on it, its origin is allowed. */
  siteUrl: text('site_url'),
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
  /** Per-currency overrides of minimum_payout, major units ({ "JPY": 5000 }). */
  minimumPayouts: text('minimum_payouts', { mode: 'json' }).$type<Record<string, number>>().notNull().default(sql`'{}'`),
  /** The ISO 4217 codes its sales may use (docs/decisions.md, Selling anywhere); docs/api.md's three by default. */
  currencies: text('currencies', { mode: 'json' })
    .$type<string[]>()
    .notNull()
    .default(sql.raw(`'${JSON.stringify(DEFAULT_CURRENCIES)}'`)),
  /** The signing secrets of the merchant-of-record processors (write-only; null while unset). */
  paddleWebhookSecret: text('paddle_webhook_secret'),
  lemonsqueezyWebhookSecret: text('lemonsqueezy_webhook_secret'),
  polarWebhookSecret: text('polar_webhook_secret'),
  /** Months after the customer's first sale that a recurring type pays; null pays forever. */
  recurringMonths: integer('recurring_months'),
  /** Whether partners may apply on /join/:program_id: off, approval (pending first) or open. */
  partnerSignup: text('partner_signup', { enum: PARTNER_SIGNUPS }).notNull().default('off'),
  /** What a new commission's fraud flags do (docs/decisions.md, Fraud signals and review): hold it, only flag it, or nothing. */
  fraudReview: text('fraud_review', { enum: FRAUD_REVIEWS }).notNull().default('hold'),
  /** The query parameters a link may arrive by (docs/imports.md): `aff`, plus each source imported from (`via`, `ref`…). */
  linkParams: text('link_params', { mode: 'json' }).$type<string[]>().notNull().default(sql`'["aff"]'`),
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
    /** manage (the program's key) or track (domain/key-scope.ts). */
    scope: text('scope', { enum: KEY_SCOPES }).notNull().default('manage'),
    /** The owner's label for a track key ("web server"). */
    name: text('name'),
    createdAt: createdAt(),
    revokedAt: integer('revoked_at'),
    /** Set by the rotation route: when the key was marked, and its deadline. */
    rotationMarkedAt: integer('rotation_marked_at'),
    rotateBy: integer('rotate_by'),
  },
  (t) => [index('api_keys_program').on(t.programId)],
)

/**
 * A program's partner groups (docs/decisions.md, Groups): their own terms (null fields take the
 * program's), the discount their partners' audience gets (a processor coupon id and words) and
 * their own join page's signup (null takes the program's). A partner's own terms still come first.
 */
export const partnerGroups = sqliteTable(
  'partner_groups',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    name: text('name').notNull(),
    commissionType: text('commission_type', { enum: COMMISSION_TYPES }),
    commissionRate: real('commission_rate'),
    recurringMonths: integer('recurring_months'),
    holdingPeriodDays: integer('holding_period_days'),
    /** The processor's coupon id (Stripe's `coupon`), not an svc coupon, and what it gives in words. */
    discountCouponId: text('discount_coupon_id'),
    discountDescription: text('discount_description'),
    partnerSignup: text('partner_signup', { enum: PARTNER_SIGNUPS }),
    createdAt: createdAt(),
  },
  (t) => [index('partner_groups_program').on(t.programId)],
)
export type PartnerGroup = typeof partnerGroups.$inferSelect

export const partners = sqliteTable(
  'partners',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    programId: integer('program_id')
      .notNull()
      .references(() => programs.id),
    name: text('name'),
    email: text('email'),
    /** The email as compared (domain/email.ts): `email_key` finds sign-in; `applicant_key` (+tag dropped) the same applicant. */
    emailKey: text('email_key'),
    applicantKey: text('applicant_key'),
    createdAt: createdAt(),
    /** pending (applied), active, rejected or suspended: only an active partner's links attribute. */
    status: text('status', { enum: PARTNER_STATUSES }).notNull().default('active'),
    /** The partner's own terms; null takes the program's. */
    commissionType: text('commission_type', { enum: COMMISSION_TYPES }),
    commissionRate: real('commission_rate'),
    recurringMonths: integer('recurring_months'),
    /** The partner's group (its terms come after the partner's own, before the program's); null for none. */
    groupId: integer('group_id').references(() => partnerGroups.id),
    /** How the partner is paid (domain/payout-method.ts), with the details: an email, a Stripe account id or bank text. */
    payoutMethod: text('payout_method', { enum: PAYOUT_METHODS }),
    payoutDetails: text('payout_details'),
    /** From the application form (/join): where and how the partner promotes. */
    website: text('website'),
    promotion: text('promotion'),
    /** The short link the applicant asked for: made on approval when it is still free. */
    wishedShortLink: text('wished_short_link'),
    /**
     * When the join form last took an application with this partner's email: written for a repeat
     * applicant too, so that both answers wait on one commit and their time tells nothing.
     */
    lastAppliedAt: integer('last_applied_at'),
    /** Set when the owner deletes the partner: the row stays for its clicks, it is listed nowhere. */
    deletedAt: integer('deleted_at'),
    /** The tool and id an import brought the partner from (docs/imports.md); null for svc's own. */
    source: text('source'),
    sourceId: text('source_id'),
  },
  (t) => [
    index('partners_program').on(t.programId),
    uniqueIndex('partners_source').on(t.programId, t.source, t.sourceId).where(sql`source IS NOT NULL`),
    index('partners_email_key').on(t.emailKey),
    index('partners_applicant_key').on(t.applicantKey),
    index('partners_group').on(t.groupId),
  ],
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
    /** The tool an import brought the link from; null for svc's own. Only such a link is found by a parameter other than `aff`. */
    source: text('source'),
  },
  (t) => [index('links_program').on(t.programId)],
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
    /** The tool and id an import brought the coupon from; null for svc's own. */
    source: text('source'),
    sourceId: text('source_id'),
  },
  (t) => [
    uniqueIndex('coupons_source').on(t.programId, t.source, t.sourceId).where(sql`source IS NOT NULL`),
    uniqueIndex('coupons_program_code').on(t.programId, t.codeKey),
    index('coupons_program_promotion').on(t.programId, t.stripePromotionCode),
    index('coupons_partner').on(t.partnerId),
  ],
)
export type Coupon = typeof coupons.$inferSelect

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

export type Program = typeof programs.$inferSelect
export type ApiKey = typeof apiKeys.$inferSelect
export type Link = typeof links.$inferSelect
