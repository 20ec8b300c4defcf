import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { COMMISSION_TYPES } from '../../domain/commission.ts'
import { FRAUD_REVIEWS } from '../../domain/fraud.ts'
import { MAX_PROGRAM_CURRENCIES } from '../../domain/currency.ts'
import { coupon, currency, group as groupMessages, review } from '../../domain/messages.ts'

// Operator API request bodies. Each property's `error` is the 400 message naming the field.
// Integers are TypeBox's own: Elysia's t.Integer also accepts numeric strings ("5").

const processorSecret = (name: string) => `${name}_webhook_secret must be a signing secret of 1 to 200 characters`

const programFields = {
  name: t.String({ minLength: 1, maxLength: 200, error: 'name must be a non-empty string' }),
  domain: t.String({
    minLength: 1,
    maxLength: 300,
    error: 'domain must be a host name such as shop.example, or a URL such as http://localhost:3901',
  }),
  commission_type: t.Union(
    COMMISSION_TYPES.map((v) => t.Literal(v)),
    {
      error: `commission_type must be one of: ${COMMISSION_TYPES.join(', ')}`,
    },
  ),
  commission_rate: t.Number({ exclusiveMinimum: 0, maximum: 1e9, error: 'commission_rate must be a positive number' }),
  lead_auth: t.Optional(
    t.Union([t.Literal('server_required'), t.Literal('browser_allowed')], {
      error: 'lead_auth must be server_required or browser_allowed',
    }),
  ),
  attribution_window_days: t.Optional(
    Type.Integer({ minimum: 1, maximum: 3650, error: 'attribution_window_days must be a whole number from 1 to 3650' }),
  ),
  allowed_origins: t.Optional(
    t.Array(t.String({ maxLength: 300 }), {
      maxItems: 100,
      error: 'allowed_origins must be an array of origins such as https://shop.example',
    }),
  ),
  livemode: t.Optional(t.Union([t.Boolean(), t.Null()], { error: 'livemode must be a boolean or null' })),
  // docs/decisions.md, Payouts.
  holding_period_days: t.Optional(
    Type.Integer({ minimum: 0, maximum: 365, error: 'holding_period_days must be a whole number from 0 to 365' }),
  ),
  minimum_payout: t.Optional(
    t.Number({ minimum: 0, maximum: 1e12, error: 'minimum_payout must be a number of major units from 0 to 1000000000000' }),
  ),
  // docs/decisions.md, Selling anywhere (turn 4): per-currency overrides of minimum_payout, major units.
  minimum_payouts: t.Optional(
    t.Record(t.String({ maxLength: 3 }), t.Number({ minimum: 0, maximum: 1e12 }), {
      error: currency.minimumPayouts,
      examples: [{ JPY: 5000 }],
    }),
  ),
  // The ISO 4217 codes the program's sales may use; docs/api.md's three by default.
  currencies: t.Optional(
    t.Array(t.String({ minLength: 3, maxLength: 3 }), {
      minItems: 1,
      maxItems: MAX_PROGRAM_CURRENCIES,
      error: currency.list,
      examples: [['USD', 'EUR', 'VND', 'GBP', 'JPY']],
    }),
  ),
  // docs/decisions.md, per-partner terms: months a recurring type pays after the first sale; null forever.
  recurring_months: t.Optional(
    t.Union([Type.Integer({ minimum: 1, maximum: 1200 }), t.Null()], {
      error: 'recurring_months must be a whole number from 1 to 1200, or null for no limit',
    }),
  ),
  partner_signup: t.Optional(
    t.Union([t.Literal('off'), t.Literal('approval'), t.Literal('open')], { error: 'partner_signup must be off, approval or open' }),
  ),
  // docs/decisions.md, Fraud signals and review: hold flagged commissions (default), only flag them, or check nothing.
  fraud_review: t.Optional(
    t.Union(
      FRAUD_REVIEWS.map((v) => t.Literal(v)),
      { error: review.mode },
    ),
  ),
}

export const CreateAccount = t.Object({
  email: t.String({ format: 'email', maxLength: 254, error: 'email must be an email address' }),
  name: t.Optional(t.String({ maxLength: 200, error: 'name must be a string' })),
})

export const CreateProgram = t.Object({
  account_id: Type.Integer({ minimum: 1, error: 'account_id must be the id of an existing account' }),
  ...programFields,
})

export const UpdateProgram = t.Object({
  ...t.Partial(t.Object(programFields)).properties,
  stripe_account_id: t.Optional(t.String({ pattern: '^acct_[A-Za-z0-9]+$', error: 'stripe_account_id must look like acct_…' })),
  stripe_webhook_secret: t.Optional(
    t.Union(
      [t.String({ minLength: 1, maxLength: 200 }), t.Array(t.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 5 })],
      { error: 'stripe_webhook_secret must be a signing secret (whsec_…) or an array of them' },
    ),
  ),
  // Write-only signing secrets of the merchant-of-record processors (docs/processors/).
  paddle_webhook_secret: t.Optional(t.String({ minLength: 1, maxLength: 200, error: processorSecret('paddle') })),
  lemonsqueezy_webhook_secret: t.Optional(t.String({ minLength: 1, maxLength: 200, error: processorSecret('lemonsqueezy') })),
  polar_webhook_secret: t.Optional(t.String({ minLength: 1, maxLength: 200, error: processorSecret('polar') })),
})

export const Rotation = t.Object({
  rotate_by: t.String({
    minLength: 1,
    error: 'rotate_by must be an ISO 8601 date or time',
    description: 'When the key stops working; a time already past retires it at once',
  }),
})

const commissionTypeOrNull = t.Union([...COMMISSION_TYPES.map((v) => t.Literal(v)), t.Null()], {
  error: `commission_type must be one of: ${COMMISSION_TYPES.join(', ')}, or null for the program's`,
})

/** A partner's own terms (docs/decisions.md, Attribution without the cookie): null is the program's. */
const partnerTerms = {
  commission_type: t.Optional(commissionTypeOrNull),
  commission_rate: t.Optional(
    t.Union([t.Number({ exclusiveMinimum: 0, maximum: 1e9 }), t.Null()], {
      error: "commission_rate must be a positive number, or null for the program's",
    }),
  ),
  recurring_months: t.Optional(
    t.Union([Type.Integer({ minimum: 1, maximum: 1200 }), t.Null()], {
      error: 'recurring_months must be a whole number from 1 to 1200, or null for no limit',
    }),
  ),
}

const groupId = {
  group_id: t.Optional(t.Union([Type.Integer({ minimum: 1 }), t.Null()], { error: groupMessages.groupId })),
}

export const CreatePartner = t.Object({
  name: t.Optional(t.String({ maxLength: 200, error: 'name must be a string' })),
  email: t.Optional(t.String({ format: 'email', maxLength: 254, error: 'email must be an email address' })),
  ...partnerTerms,
  ...groupId,
})

const groupFields = {
  ...partnerTerms,
  holding_period_days: t.Optional(
    t.Union([Type.Integer({ minimum: 0, maximum: 365 }), t.Null()], {
      error: "holding_period_days must be a whole number from 0 to 365, or null for the program's",
    }),
  ),
  discount: t.Optional(
    t.Union(
      [
        t.Object({
          coupon_id: t.String({ minLength: 1, maxLength: 255 }),
          description: t.String({ minLength: 1, maxLength: 300 }),
        }),
        t.Null(),
      ],
      {
        error:
          "discount must be { coupon_id, description }: the processor's coupon id (1 to 255 characters) and what it gives in words (1 to 300), or null",
      },
    ),
  ),
  partner_signup: t.Optional(
    t.Union([t.Literal('off'), t.Literal('approval'), t.Literal('open'), t.Null()], {
      error: "partner_signup must be off, approval or open, or null for the program's",
    }),
  ),
}

/** POST /programs/:id/groups (docs/decisions.md, Groups): null or absent terms are the program's. */
export const CreateGroup = t.Object({
  name: t.String({ minLength: 1, maxLength: 200, error: 'name is required and must be at most 200 characters' }),
  ...groupFields,
})

export const UpdateGroup = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 200, error: 'name must be a non-empty string of at most 200 characters' })),
  ...groupFields,
})

/** PATCH a partner (docs/decisions.md, First run): null puts a term back to the program's. */
export const UpdatePartner = t.Object({
  name: t.Optional(t.Union([t.String({ maxLength: 200 }), t.Null()], { error: 'name must be a string of at most 200 characters' })),
  email: t.Optional(t.Union([t.String({ format: 'email', maxLength: 254 }), t.Null()], { error: 'email must be an email address' })),
  ...partnerTerms,
  ...groupId,
  payout_method: t.Optional(
    t.Union([t.Literal('paypal'), t.Literal('wise'), t.Literal('bank'), t.Literal('stripe'), t.Null()], {
      error: 'payout_method must be paypal, wise, bank or stripe',
    }),
  ),
  payout_details: t.Optional(
    t.Union([t.String({ maxLength: 1000 }), t.Null()], { error: 'payout_details must be a string of at most 1000 characters' }),
  ),
})

export const RejectPartner = t.Object({
  reason: t.Optional(t.String({ maxLength: 1000, error: 'reason must be a string of at most 1000 characters' })),
})

export const CreateLink = t.Object({
  partner_id: Type.Integer({ minimum: 1, error: 'partner_id must be the id of a partner of this program' }),
  short_link: t.String({ pattern: '^[A-Za-z0-9_-]{1,100}$', error: 'short_link must be 1 to 100 letters, digits, - or _' }),
})

export const UpdateLink = t.Object({
  active: t.Boolean({ error: 'active must be a boolean' }),
})

export const RunPayouts = t.Object({
  until: t.Optional(
    t.String({
      maxLength: 64,
      error: 'until must be an ISO 8601 date or time',
      description: 'Pay what is due up to this time (default now)',
    }),
  ),
})

export const MarkPaid = t.Object({
  reference: t.Optional(
    t.String({
      maxLength: 500,
      error: 'reference must be a string of at most 500 characters',
      description: 'The bank transfer or batch reference',
    }),
  ),
})

/** POST a partner's coupon: the code as given (matched without case), and its Stripe promotion code. */
export const CreateCoupon = t.Object({
  code: t.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', error: coupon.code, description: 'Stored as given; unique per program without case' }),
  stripe_promotion_code: t.Optional(
    t.Union([t.String({ pattern: '^promo_[A-Za-z0-9]{1,249}$' }), t.Null()], {
      error: coupon.promotion,
      description: 'The Stripe promotion code (promo_…) whose checkouts and invoices this coupon attributes',
    }),
  ),
})

/** docs/decisions.md, Paying partners: send pending payouts through a rail. */
export const SendPayouts = t.Object({
  rail: t.Union([t.Literal('paypal'), t.Literal('stripe')], { error: 'rail must be paypal or stripe' }),
  payout_ids: t.Optional(t.Array(Type.Integer({ minimum: 1 }), { maxItems: 15_000, error: 'payout_ids must be a list of payout ids' })),
})

/** POST /programs/:id/partners/:partner_id/bonuses (docs/decisions.md, Groups: bonuses). */
export const CreateBonus = t.Object({
  amount_cents: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: groupMessages.bonusAmount }),
  currency: t.String({ minLength: 3, maxLength: 3, error: groupMessages.bonusCurrency }),
  description: t.String({ minLength: 1, maxLength: 500, error: groupMessages.bonusDescription }),
})
