import type { Writer } from './writer.ts'

/** Past this many rows the copy starts again empty: memory stays bounded under scans of bad keys. */
const MAX_ENTRIES = 20_000

/**
 * An in-memory copy of the rows every tracking request reads and only the operator changes:
 * referral links (by short_link), API keys (by hash) and the browser origins of all programs.
 * A read outside a transaction costs SQLite a WAL read-lock round trip, which on the click and
 * sale paths was a fifth to a third of the time (bench/README.md). Only rows that exist are
 * kept, so a new link or key needs no invalidation. The stores that write programs, links or
 * api_keys call changed() in those write methods, so no caller can forget it; the process is the
 * only writer (docs/decisions.md), so nothing else can change them.
 */
export class Catalog {
  private readonly entries = new Map<string, unknown>()
  private origins: unknown = null

  /**
   * `enabled: false` keeps no copy and sends every read to SQLite: for a server whose database
   * another process writes too (the HTTP suites run against a server on Deno, test/deno-server.ts).
   */
  constructor(
    private readonly writer: Pick<Writer, 'afterBatch'>,
    private readonly enabled = true,
  ) {}

  /** The row under `key`, loaded once by `load`; null (never kept) when it does not exist. */
  row<T>(key: string, load: () => T | null): T | null {
    if (!this.enabled) return load()
    const hit = this.entries.get(key)
    if (hit !== undefined) return hit as T
    const row = load()
    if (row !== null) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear()
      this.entries.set(key, row)
    }
    return row
  }

  /** A value derived from every program (the browser origins), computed once per change. */
  derived<T>(load: () => T): T {
    if (!this.enabled) return load()
    return (this.origins ??= load()) as T
  }

  /**
   * Drops every copy: now, and again when the writer's current batch has ended, since a later
   * unit of the same batch may load the changed row again before a COMMIT that can still fail.
   */
  changed(): void {
    this.clear()
    this.writer.afterBatch(() => this.clear())
  }

  private clear(): void {
    this.entries.clear()
    this.origins = null
  }
}
