import type { Database } from '../../db/open.ts'
import type { Program } from '../../db/schema.ts'
import { originAccepted } from '../../domain/site.ts'

/** The program's rule for a browser origin (domain/site.ts originAccepted). */
export const originAllowed = originAccepted

/** Each program row's answers by origin: a site's clicks and leads bring the same few origins again and again. */
const answers = new WeakMap<object, Map<string, boolean>>()
/** Past this many origins a program's answers start again empty: hostile Origin headers cannot grow memory. */
const MAX_ORIGINS = 64

/**
 * originAllowed, answered once per program row and origin. Rows are never changed in place: the
 * catalog (src/db/catalog.ts) hands out a new row after every program change, so a changed
 * domain or allowed_origins is checked afresh.
 */
export function originAllowedOnce(program: Pick<Program, 'domain' | 'siteUrl' | 'allowedOrigins'>, origin: string): boolean {
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
