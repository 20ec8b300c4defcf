// Every message and code a client can see, spelled exactly as docs/errors.md spells it.
// Tests assert the literal strings, not these constants, so a typo here fails them.

export const auth = {
  malformedHeader: 'Missing or malformed Authorization header. Expected: Bearer <token>',
  missingToken: 'Missing API token',
  invalidToken: 'Invalid API token',
  // Readiness: the same three, ending with a period, placeholder written <api_token>.
  readinessMalformed: 'Missing or malformed Authorization header. Expected: Bearer <api_token>.',
  readinessMissing: 'Missing API token.',
  readinessInvalid: 'Invalid API token.',
  // CLI status and test-event.
  cliMalformed: 'Missing or malformed Authorization header. Expected: Bearer <api_token>',
  cliMissing: 'Missing API token',
  // docs/errors.md fixes "Invalid API key." and asks for advice to regenerate the key; the advice is
  // ours. This product has no settings screen, so every hint names the operator API call.
  cliInvalidKey:
    'Invalid API key. Regenerate the key with the operator API (POST /api/v1/admin/programs/<program_id>/api-key) and use the new one; creating another program does not help.',
  rotationRequired: 'api_key_rotation_required',
  rotationRetired:
    'This API key was retired after its rotation deadline. Regenerate the key (POST /api/v1/admin/programs/<program_id>/api-key) and use the new one.',
  rotationHint: 'Regenerate the API key with the operator API (POST /api/v1/admin/programs/<program_id>/api-key) and deploy the new key.',
  rotationWarning: 'This API key is marked for mandatory rotation and stops working at its deadline.',
  adminUnauthorized: 'Invalid or missing admin token',
  // docs/decisions.md, Safety, third round: a track key on a route that manages the program.
  trackOnly: 'This key can only track',
  // Not in docs/api.md (docs/decisions.md, Hostile input): 10 wrong admin tokens a minute from one IP.
  adminTooManyFailures: 'Too many wrong admin tokens from this address. Retry after the number of seconds in Retry-After.',
} as const

/** A program's keys (docs/decisions.md, Safety, third round). */
export const keys = {
  scope: 'scope must be track',
  name: 'name must be a text of at most 100 characters, without control characters',
  notFound: 'Key not found',
  manage: "The program's manage key cannot be deleted: regenerate it instead",
} as const

export const click = {
  urlRequired: 'affiliate_url is required',
  urlInvalid: 'Invalid affiliate_url',
  noAff: 'No aff parameter found in affiliate_url',
  linkNotFound: 'Referral link not found',
  linkMisconfigured: 'Invalid referral link configuration',
  linkDisabled: 'This referral link is disabled.',
  linkDisabledHint: 'The partner or the brand turned this link off; no click was recorded.',
  failed: 'Click tracking failed',
  clickIdType: 'click_id must be a string of at most 255 characters',
} as const

export const lead = {
  identifierRequired: 'click_id or customer_key is required',
  customerNotFound: 'Customer not found. Provide a valid click_id or customer_key.',
  otherProgram: 'Customer does not belong to this program',
  statusLocked: (status: string) => `Customer status cannot be updated to lead. Current status: ${status}`,
  failed: 'Lead tracking failed',
  customerKeyType: 'customer_key must be a string (or an integer) of at most 255 characters',
  clickIdType: 'click_id must be a string of at most 255 characters',
  emailType: 'email must be a string of at most 254 characters',
} as const

/** Currencies (docs/decisions.md, Selling anywhere). */
export const currency = {
  list: 'currencies must be a list of 1 to 50 active ISO 4217 currency codes such as USD, GBP or JPY',
  minimumPayouts:
    'minimum_payouts must map ISO 4217 currency codes to numbers of major units from 0 to 1000000000000, with no more decimals than the currency has, such as { "JPY": 5000 }',
} as const

export const sale = {
  transactionId: 'transaction_id is required and must be a string',
  amount: 'amount_cents is required and must be a positive integer',
  occurredAt: 'occurred_at must be an ISO 8601 time within the last 30 days',
  provider: (allowed: readonly string[]) => `provider must be one of: ${allowed.join(', ')}`,
  providerPaymentId: 'provider_payment_id must be a string of 1 to 255 characters',
  livemode: 'livemode must be a boolean',
  currency: (currency: string) => `currency ${currency} is not supported`,
  customerNotFound: 'Customer not found. Provide customer_key or click_id.',
  noAttribution: 'No affiliate attribution found for this customer in this program',
  noRelationship: 'No partner-program relationship found for this customer',
  partnerRequired: 'partnerId required to create commission',
  duplicate: 'Duplicate transaction_id. This sale has already been recorded.',
  failed: 'Sale tracking failed',
  commissionFailed: 'Failed to create commission',
  customerKeyType: 'customer_key must be a string (or an integer) of at most 255 characters',
  clickIdType: 'click_id must be a string of at most 255 characters',
  couponCode: 'coupon_code must be a string of at most 64 characters',
} as const

export const refund = {
  transactionId: 'transaction_id is required',
  reason: 'reason must be refund or chargeback',
  notFound: 'Sale not found for transaction_id',
  failed: 'Refund tracking failed',
  refundReasonType: 'refund_reason must be a string of at most 1000 characters',
} as const

export const shared = {
  programMismatch: 'program_id does not match the API key',
  additionalData: 'additional_data must be an object; its test_mode a boolean and its program_id an integer',
  originNotAllowed: 'Origin not allowed for this program',
  stripeConnectRetired: 'This endpoint is retired. Connect the payment processor from the dashboard (program, Settings, Connect).',
  rateLimited: 'Too many requests. Retry after the number of seconds in Retry-After.',
  chainCap: 'Too many synthetic chains (max 10/program/hour).',
  readinessFailed: 'Failed to compute readiness. Retry shortly.',
  internal: 'Internal server error',
  notFound: 'Route not found',
  malformedJson: 'Malformed JSON body',
  /** docs/decisions.md, Shutdown: a request that arrives while the server drains. */
  shuttingDown: 'Service is shutting down',
  bodyTooLarge: 'Request body too large (limit 65536 bytes)',
  // Not in docs/api.md (docs/decisions.md, Hostile input): the path and query over 8 KiB.
  urlTooLong: 'URL too long (limit 8192 bytes)',
  contentType: 'Content-Type must be application/json',
} as const

export const cli = {
  startFailed: 'Failed to start auth session',
  callbackMissing: 'Missing required fields: state, id_token',
  callbackNotFound: 'Session not found or already used',
  sessionExpired: 'Session expired',
  suspended: 'Your account has been suspended.',
  callbackFailed: 'Auth callback failed',
  invalidIdToken: 'Invalid id_token',
  pollMissingState: 'Missing state parameter',
  pollNotFound: 'Session not found',
  pollConsumed: 'Session already consumed',
  pollFailed: 'Failed to poll auth session',
  // Not in docs/api.md: pending login sessions per client IP (docs/cli-server.md).
  tooManySessions: 'Too many pending login sessions from this address. Finish one or let it expire (5 minutes).',
  initAuthRequired: 'Authentication required — run `svc login` first',
  initInvalidToken: 'Invalid or expired token — run `svc login` again',
  initAccountMissing: 'the service not found — run `svc login` again',
  initNoAdvertiser: 'No advertiser found for this account — run `svc login` again',
  initAdvertiserMismatch: 'advertiser_id does not match the authenticated account',
  initMissingFields: 'Missing required fields: name, domain, commission_type, commission_rate',
  initCommissionType: (value: string) => `Invalid commission_type: ${value}. Valid: percent, fixed, recurring_percent, recurring_fixed`,
  initCommissionRate: 'commission_rate must be a positive number',
  // Not in docs/api.md: a domain that is no host name (docs/cli-server.md).
  initDomain: 'domain must be a host name such as shop.example, or a URL such as http://localhost:3901',
  initFailed: 'Failed to create program',
  programsMissingHeader: 'Missing Authorization header. Run `svc login` first.',
  programsInvalidToken: 'Invalid or expired token. Run `svc login` to refresh.',
  programsAccountMissing: 'the service not found',
  programsFailed: 'Failed to list programs',
  statusFailed: 'Failed to get status',
  testEventType: (value: string) => `Invalid event_type: ${value}. Valid: click, lead, sale`,
  chainFailed: 'Failed to run synthetic chain',
  testEventFailed: 'Failed to process test event',
} as const

// Processor webhooks (docs/decisions.md, Processor webhooks; docs/errors.md): 400 for a bad signature or body.
export const webhook = {
  missingSignature: 'Missing Stripe-Signature header',
  badSignature: 'No valid signature for this endpoint in the Stripe-Signature header',
  signatureTolerance: 'Stripe-Signature timestamp is more than 300 seconds from the server time',
  noSecret: 'No Stripe webhook signing secret is set for this program',
  notAnEvent: 'Body is not a Stripe event (JSON with id, type and data.object)',
  bodyTooLarge: 'Request body too large (limit 524288 bytes)',
  programNotFound: 'Program not found',
} as const

/** The same refusals for any processor (docs/processors/): Stripe's read exactly as `webhook` above. */
export const processorWebhook = {
  missingSignature: (header: string) => `Missing ${header} header`,
  badSignature: (header: string) => `No valid signature for this endpoint in the ${header} header`,
  signatureTolerance: (header: string, seconds: number) => `${header} timestamp is more than ${seconds} seconds from the server time`,
  noSecret: (label: string) => `No ${label} webhook signing secret is set for this program`,
  notAnEvent: (label: string, shape: string) => `Body is not a ${label} event (${shape})`,
} as const

// The operator API's payouts (docs/decisions.md, Payouts; not in docs/api.md).
export const payout = {
  programNotFound: 'Program not found',
  notFound: 'Payout not found',
  until: 'until must be an ISO 8601 date or time',
  paidCannotCancel: 'A paid payout cannot be canceled',
  canceledCannotPay: 'A canceled payout cannot be marked paid',
  csvStatus: 'status must be pending, processing, paid, failed or canceled (several separated by commas)',
  processing: 'A payout being sent cannot be marked paid or canceled: the rail says when it is paid or failed',
  failed: 'A failed payout cannot be marked paid or canceled: its entries are due again for the next run',
  rail: 'rail must be paypal or stripe',
  railOff: (rail: string, variables: string) => `rail ${rail} is not configured on this server: set ${variables}`,
  payoutIds: 'payout_ids must be a list of payout ids',
  fileFormat: 'format must be paypal or wise',
  fileCurrency: 'currency must be a three-letter ISO 4217 code',
  fileCurrencies: (found: string[]) =>
    `currency is required: the pending PayPal payouts are in ${found.join(', ')}, and a PayPal file holds one currency`,
} as const

// docs/decisions.md, Hostile input (turn 3): money stays exact. Each names the field it refuses.
export const money = {
  percentRate: 'commission_rate must be at most 100 for the percent and recurring_percent types',
  balance: (currency: string) =>
    `amount_cents would make the partner's unpaid commissions in ${currency} larger than 9007199254740991 cents`,
} as const

// The operator API's partner routes (docs/decisions.md, First run and Partners who join on their own).
export const partner = {
  notFound: 'Partner not found',
  hasSales: 'This partner has sales and cannot be deleted: suspend them instead',
  notPending: (status: string) => `Partner is ${status}, not pending`,
  notActive: (status: string) => `Partner is ${status}, not active`,
  notSuspended: (status: string) => `Partner is ${status}, not suspended`,
  status: 'status must be one of: pending, active, rejected, suspended',
} as const

// Partner groups, the two-sided discount and bonuses (docs/decisions.md, Groups).
export const group = {
  notFound: 'Group not found',
  hasPartners: 'This group has partners and cannot be deleted: move them to another group first',
  groupId: 'group_id must be the id of a group of this program, or null for none',
  discountLookup: 'click_id or customer_key is required',
  bonusAmount: 'amount_cents is required and must be a positive integer',
  bonusCurrency: 'currency must be one of the currencies of the program',
  bonusDescription: 'description is required and must be at most 500 characters',
} as const

// The read routes' and CSVs' filters (docs/decisions.md, First run: exports and filters).
export const filters = {
  from: 'from must be an ISO 8601 date such as 2026-11-01',
  to: 'to must be an ISO 8601 date such as 2026-11-30',
  commissionStatus: 'status must be one of: pending, due, in_payout, paid, reversed, held',
  q: 'q must be a text of at most 200 characters',
  groupId: 'group_id must be a group id',
} as const

// Verifiable statements (docs/decisions.md, Verifiable statements; docs/ledger.md).
export const statements = {
  month: 'month must be a month such as 2026-11 (YYYY-MM)',
  future: 'month must not be in the future',
} as const

// Coupons (docs/decisions.md, Attribution without the cookie, and consent).
export const coupon = {
  code: 'code must be 1 to 64 characters: letters, digits, - and _',
  promotion: 'stripe_promotion_code must be a Stripe promotion code id (promo_…) of at most 255 characters',
  taken: 'This coupon code is taken in this program (codes are compared without case)',
  notFound: 'Coupon not found',
} as const

// Commission review (docs/decisions.md, Fraud signals and review).
export const review = {
  notFound: 'Commission not found',
  notHeld: 'Commission is not held for review',
  reason: 'reason must be a text of at most 500 characters',
  mode: 'fraud_review must be hold, flag or off',
} as const
