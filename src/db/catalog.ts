import type { Database } from './open'

/**
 * An in-memory copy of the rows every tracking request reads and only the operator changes:
 * referral links (by short_link) and API keys (by hash). A read outside a transaction costs
 * SQLite a WAL read-lock round trip, which on the click and sale paths was a fifth to a third
 * of the time (bench/README.md). Only rows that exist are kept, so a new link or key needs no
 * invalidation; every change to a program, link or key calls catalogChanged() once its write
 * has committed. The process is the only writer (docs/decisions.md), so nothing else can change them.
 */
interface Catalog {
  entries: Map<string, unknown>
  origins: unknown
}

/** Past this many rows the copy starts again empty: memory stays bounded under scans of bad keys. */
const MAX_ENTRIES = 20_000
const catalogs = new WeakMap<Database, Catalog>()
let enabled = true

/**
 * Test only: with another process writing to the same database (the HTTP suite against a server
 * in a subprocess), no copy can be trusted, so every read goes to SQLite.
 */
export function disableCatalog(): void {
  enabled = false
}

function catalogOf(database: Database): Catalog {
  let catalog = catalogs.get(database)
  if (!catalog) catalogs.set(database, (catalog = { entries: new Map(), origins: null }))
  return catalog
}

/** The row under `key`, loaded once by `load`; null (never kept) when it does not exist. */
export function cachedRow<T>(database: Database, key: string, load: () => T | null): T | null {
  if (!enabled) return load()
  const { entries } = catalogOf(database)
  const hit = entries.get(key)
  if (hit !== undefined) return hit as T
  const row = load()
  if (row !== null) {
    if (entries.size >= MAX_ENTRIES) entries.clear()
    entries.set(key, row)
  }
  return row
}

/** A value derived from every program (the browser origins), computed once per change. */
export function cachedOrigins<T>(database: Database, load: () => T): T {
  if (!enabled) return load()
  const catalog = catalogOf(database)
  return (catalog.origins ??= load()) as T
}

/** Drops every copied row; call it after a program, link or key write has committed. */
export function catalogChanged(database: Database): void {
  catalogs.delete(database)
}
