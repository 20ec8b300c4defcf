import type { Database } from '../../db/open.ts'
import type { Program } from '../../db/schema.ts'

/**
 * Browser origins (docs/decisions.md, Browser origins): a program accepts https://<domain>, its
 * subdomains over https, and the exact origins in allowed_origins (scheme, host and port).
 */
export function originAllowed(program: Pick<Program, 'domain' | 'allowedOrigins'>, origin: string): boolean {
  if (program.allowedOrigins.includes(origin)) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.port !== '') return false
  const domain = program.domain.toLowerCase()
  return url.hostname === domain || url.hostname.endsWith(`.${domain}`)
}

/** Each program row's answers by origin: a site's clicks and leads bring the same few origins again and again. */
const answers = new WeakMap<object, Map<string, boolean>>()
/** Past this many origins a program's answers start again empty: hostile Origin headers cannot grow memory. */
const MAX_ORIGINS = 64

/**
 * originAllowed, answered once per program row and origin. Rows are never changed in place: the
 * catalog (src/db/catalog.ts) hands out a new row after every program change, so a changed
 * domain or allowed_origins is checked afresh.
 */
export function originAllowedOnce(program: Pick<Program, 'domain' | 'allowedOrigins'>, origin: string): boolean {
  let known = answers.get(program)
  if (!known) answers.set(program, (known = new Map()))
  let allowed = known.get(origin)
  if (allowed === undefined) {
    allowed = originAllowed(program, origin)
    if (known.size >= MAX_ORIGINS) known.clear()
    known.set(origin, allowed)
  }
  return allowed
}

/** Whether any program accepts `origin`: what CORS preflight answers, since it carries no program. */
export function originKnown(database: Database, origin: string): boolean {
  return database.stores.programs.browserOrigins().some((program) => originAllowed(program, origin))
}

/** Normalises a program domain: host only, lower case ("https://www.Shop.test/x" → "www.shop.test"). */
export function normalizeDomain(input: string): string | null {
  const text = input.trim().toLowerCase()
  if (!text) return null
  try {
    const host = new URL(text.includes('://') ? text : `https://${text}`).hostname
    return (/^[a-z0-9.-]+$/.test(host) && host.includes('.')) || host === 'localhost' ? host : null
  } catch {
    return null
  }
}
