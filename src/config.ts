/** Server configuration: the environment table of the README, validated at start. */
export interface Config {
  port: number
  host: string
  databasePath: string
  adminToken: string | null
  secret: string | null
  trustProxy: boolean
  publicBaseUrl: string
  stripeConnectWebhookSecret: string | null
  docsUrl: string
  /** Multiplies every per-minute limit of docs/api.md; 1 in production, raised only for benchmarks. */
  rateLimitScale: number
  /** One JSON log line per request unless "off" (the tests turn it off). */
  logRequests: boolean
}

export class ConfigError extends Error {}

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? null : value)

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  if (['true', '1', 'yes'].includes(value.toLowerCase())) return true
  if (['false', '0', 'no'].includes(value.toLowerCase())) return false
  throw new ConfigError(`${name} must be true or false, got "${value}"`)
}

/** An http(s) URL; `trim` drops trailing slashes (a base URL that paths are appended to). */
function parseUrl(name: string, value: string, trim = true): string {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error()
    if (!trim) return value
    // Trailing slashes cut by hand: no regular expression runs over text from outside (issue 9).
    let end = value.length
    while (end > 0 && value.charCodeAt(end - 1) === 47) end--
    return value.slice(0, end)
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`)
  }
}

/** Reads and validates the configuration; throws ConfigError with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const portText = env.PORT ?? '3000'
  const port = Number(portText)
  if (!/^\d+$/.test(portText) || port > 65535) throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${portText}"`)
  const adminToken = nonEmpty(env.SVC_ADMIN_TOKEN)
  if (adminToken !== null && adminToken.length < 16) throw new ConfigError('SVC_ADMIN_TOKEN must be at least 16 characters')
  const secret = nonEmpty(env.SVC_SECRET)
  if (secret !== null && secret.length < 32) throw new ConfigError('SVC_SECRET must be at least 32 characters')
  const publicBaseUrl = parseUrl('PUBLIC_BASE_URL', nonEmpty(env.PUBLIC_BASE_URL) ?? `http://localhost:${port}`)
  const scaleText = env.SVC_RATE_LIMIT_SCALE ?? '1'
  const rateLimitScale = Number(scaleText)
  if (!Number.isFinite(rateLimitScale) || rateLimitScale < 1) throw new ConfigError(`SVC_RATE_LIMIT_SCALE must be a number of at least 1, got "${scaleText}"`)
  return {
    port,
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    databasePath: nonEmpty(env.DATABASE_PATH) ?? './data/svc.db',
    adminToken,
    secret,
    trustProxy: parseBoolean('TRUST_PROXY', env.TRUST_PROXY, false),
    publicBaseUrl,
    stripeConnectWebhookSecret: nonEmpty(env.STRIPE_CONNECT_WEBHOOK_SECRET),
    // {docs_url} is used as given: `{docs_url}#api_key_rotation_required` keeps its trailing slash.
    docsUrl: parseUrl('DOCS_URL', nonEmpty(env.DOCS_URL) ?? `${publicBaseUrl}/docs`, false),
    rateLimitScale,
    logRequests: parseBoolean('SVC_LOG_REQUESTS', env.SVC_LOG_REQUESTS, true),
  }
}
