// zod/mini: the same checks as zod's full API, about 7 MB less resident at start (issue 36).
import * as z from 'zod/mini'

/** Server configuration: the environment table of the README, validated at start. */
export interface Config {
  port: number
  host: string
  databasePath: string
  adminToken: string | null
  secret: string | null
  /**
   * Where the client IP comes from (docs/decisions.md, configuration): `false` the TCP peer;
   * `true` the right-most X-Forwarded-For entry; `fly` Fly-Client-IP, else as `true`.
   */
  trustProxy: TrustProxy
  publicBaseUrl: string
  stripeConnectWebhookSecret: string | null
  docsUrl: string
  /** Multiplies every per-minute limit of docs/api.md; 1 in production, raised only for benchmarks. */
  rateLimitScale: number
  /** One JSON log line per request unless "off" (the tests turn it off). */
  logRequests: boolean
  /** SMTP_URL (smtp:// with STARTTLS when offered, or smtps://); null: every email is written to stderr instead, as `logged`. */
  smtpUrl: string | null
  /** MAIL_LOG: without SMTP_URL, whether each email's line is written to stderr (off: only recorded). */
  mailLog: boolean
  /** MAIL_FROM: the From of every email ("Shop Partners <partners@shop.example>"). */
  mailFrom: string
  /** Whether MAIL_FROM was set: unset, a program's emails are from the program's name (`"Acme" <svc@host>`). */
  mailFromSet: boolean
  /** WEBHOOKS_ALLOW_PRIVATE: webhook URLs may point at loopback and private addresses (local development, tests). */
  webhooksAllowPrivate: boolean
  /** The PayPal Payouts rail (docs/payouts.md): on when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set. */
  paypal: { clientId: string; clientSecret: string; apiBase: string } | null
  /** The Stripe Connect rail (docs/payouts.md): on when STRIPE_SECRET_KEY is set. */
  stripe: { secretKey: string; apiBase: string } | null
  /** ALLOW_PRIVATE_URLS: webhook URLs and an import's base_url may point at loopback and private addresses. */
  allowPrivateUrls: boolean
  /** Values that work but are weak (a short admin token or secret): logged at start, never refused. */
  warnings: string[]
}

export type TrustProxy = false | true | 'fly'

export class ConfigError extends Error {}

/** A variable's text; unset and empty both read as null (the default applies). */
const text = z.pipe(
  z.optional(z.string()),
  z.transform((value) => (value === undefined || value === '' ? null : value)),
)

/** How a transform reports a refused value. */
type Issues = { issues: { code: 'custom'; message: string; input: unknown }[] }

/** A value `read` accepts (undefined: refused with `message`, which names the variable and quotes the value). */
const checked =
  <T>(read: (value: string) => T | undefined, message: (value: string) => string) =>
  (value: string, ctx: Issues): T => {
    const result = read(value)
    if (result === undefined) ctx.issues.push({ code: 'custom', message: message(value), input: value })
    return result as T
  }

/** An optional variable: null when unset or empty, else what `check` makes of it. */
const optional = <T>(check: (value: string, ctx: Issues) => T) =>
  z.pipe(
    text,
    z.transform((value: string | null, ctx) => (value === null ? null : check(value, ctx as unknown as Issues))),
  )

/** A variable with a default when unset, then what `check` makes of it. */
const withDefault = <T>(fallback: string, check: (value: string, ctx: Issues) => T) =>
  z.pipe(
    z._default(z.string(), fallback),
    z.transform((value: string, ctx) => check(value, ctx as unknown as Issues)),
  )

/** An optional variable, `fallback` when unset. */
const orElse = <T>(schema: z.ZodMiniType<T | null>, fallback: NonNullable<T>) =>
  z.pipe(
    schema,
    z.transform((value: T | null) => value ?? fallback),
  )

const flag = (name: string, fallback: boolean) =>
  orElse(
    optional(
      checked(
        (value) => {
          if (['true', '1', 'yes'].includes(value.toLowerCase())) return true
          if (['false', '0', 'no', 'off'].includes(value.toLowerCase())) return false
          return undefined
        },
        (value) => `${name} must be true or false, got "${value}"`,
      ),
    ),
    fallback,
  )

/** An http(s) URL; `trim` drops trailing slashes (a base URL that paths are appended to). */
const url = (name: string, trim = true) =>
  optional(
    checked(
      (value) => {
        if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) return undefined
        if (!trim) return value
        // Trailing slashes cut by hand: no regular expression runs over text from outside (issue 9).
        let end = value.length
        while (end > 0 && value.charCodeAt(end - 1) === 47) end--
        return value.slice(0, end)
      },
      (value) => `${name} must be an http(s) URL, got "${value}"`,
    ),
  )

/** The advised least length of a credential: shorter ones start with a warning (README, Configuration). */
const ADVISED_LENGTH = { SVC_ADMIN_TOKEN: 16, SVC_SECRET: 32 } as const

// Declared in the order the variables are checked: the first failing one is reported.
const Environment = z.object({
  PORT: withDefault(
    '3000',
    checked(
      (value) => (/^\d+$/.test(value) && Number(value) <= 65535 ? Number(value) : undefined),
      (value) => `PORT must be a whole number from 0 to 65535, got "${value}"`,
    ),
  ),
  SVC_ADMIN_TOKEN: text,
  SVC_SECRET: text,
  PUBLIC_BASE_URL: url('PUBLIC_BASE_URL'),
  SVC_RATE_LIMIT_SCALE: withDefault(
    '1',
    checked(
      (value) => (Number.isFinite(Number(value)) && Number(value) >= 1 ? Number(value) : undefined),
      (value) => `SVC_RATE_LIMIT_SCALE must be a number of at least 1, got "${value}"`,
    ),
  ),
  HOST: text,
  DATABASE_PATH: text,
  TRUST_PROXY: z.pipe(
    optional(
      checked(
        (value): TrustProxy | undefined => {
          const lower = value.toLowerCase()
          if (lower === 'fly') return 'fly'
          if (['true', '1', 'yes'].includes(lower)) return true
          if (['false', '0', 'no'].includes(lower)) return false
          return undefined
        },
        (value) => `TRUST_PROXY must be false, true or fly, got "${value}"`,
      ),
    ),
    z.transform((value: TrustProxy | null): TrustProxy => value ?? false),
  ),
  STRIPE_CONNECT_WEBHOOK_SECRET: text,
  // {docs_url} is used as given: `{docs_url}#api_key_rotation_required` keeps its trailing slash.
  DOCS_URL: url('DOCS_URL', false),
  SVC_LOG_REQUESTS: flag('SVC_LOG_REQUESTS', true),
  SMTP_URL: optional(
    checked(
      (value) => (URL.canParse(value) && ['smtp:', 'smtps:'].includes(new URL(value).protocol) ? value : undefined),
      (value) => `SMTP_URL must be an smtp:// or smtps:// URL, got "${value.replace(/\/\/[^@/]*@/, '//…@')}"`,
    ),
  ),
  MAIL_FROM: text,
  MAIL_LOG: flag('MAIL_LOG', true),
  WEBHOOKS_ALLOW_PRIVATE: flag('WEBHOOKS_ALLOW_PRIVATE', false),
  PAYPAL_CLIENT_ID: text,
  PAYPAL_CLIENT_SECRET: text,
  PAYPAL_API_BASE: url('PAYPAL_API_BASE'),
  STRIPE_SECRET_KEY: text,
  STRIPE_API_BASE: url('STRIPE_API_BASE'),
  ALLOW_PRIVATE_URLS: flag('ALLOW_PRIVATE_URLS', false),
})

/** Reads and validates the configuration; throws ConfigError with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = Environment.safeParse(env)
  if (!parsed.success) throw new ConfigError(parsed.error.issues[0].message)
  const e = parsed.data
  const publicBaseUrl = e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`
  return {
    port: e.PORT,
    host: e.HOST ?? '0.0.0.0',
    databasePath: e.DATABASE_PATH ?? './data/svc.db',
    adminToken: e.SVC_ADMIN_TOKEN,
    secret: e.SVC_SECRET,
    trustProxy: e.TRUST_PROXY,
    publicBaseUrl,
    stripeConnectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET,
    docsUrl: e.DOCS_URL ?? `${publicBaseUrl}/docs`,
    rateLimitScale: e.SVC_RATE_LIMIT_SCALE,
    logRequests: e.SVC_LOG_REQUESTS,
    smtpUrl: e.SMTP_URL,
    mailLog: e.MAIL_LOG,
    // docs/decisions.md, Turn 4: ALLOW_PRIVATE_URLS lifts the rule for webhooks and imports alike.
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE || e.ALLOW_PRIVATE_URLS,
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    mailFrom: e.MAIL_FROM ?? `svc <svc@${new URL(publicBaseUrl).hostname}>`,
    mailFromSet: e.MAIL_FROM !== null,
    paypal:
      e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET
        ? { clientId: e.PAYPAL_CLIENT_ID, clientSecret: e.PAYPAL_CLIENT_SECRET, apiBase: e.PAYPAL_API_BASE ?? 'https://api-m.paypal.com' }
        : null,
    stripe: e.STRIPE_SECRET_KEY ? { secretKey: e.STRIPE_SECRET_KEY, apiBase: e.STRIPE_API_BASE ?? 'https://api.stripe.com' } : null,
    warnings: Object.entries(ADVISED_LENGTH)
      .filter(([name, length]) => {
        const value = e[name as keyof typeof ADVISED_LENGTH]
        return value !== null && value.length < length
      })
      .map(([name, length]) => `${name} is shorter than ${length} characters: a longer random value is advised`),
  }
}
