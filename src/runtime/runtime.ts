/**
 * What the app needs from its host runtime. Only src/runtime/* may import bun:* or touch Deno,
 * so that the same Elysia app serves on Bun and on Deno (DECISIONS.md, Runtime and shape).
 */
export interface SqliteStatement {
  run(...params: unknown[]): unknown
  get(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
  values(...params: unknown[]): unknown[][]
}

/** The subset of bun:sqlite's Database that drizzle-orm/bun-sqlite and our writer use. */
export interface SqliteDatabase {
  exec(sql: string): void
  prepare(sql: string): SqliteStatement
  query?(sql: string): SqliteStatement
  close(): void
}

export interface Served {
  port: number
  stop(): Promise<void>
}

export interface Runtime {
  name: 'bun' | 'deno'
  openSqlite(path: string): SqliteDatabase
  /** Serves fetch; records each request's peer address for clientAddress(). */
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Response | Promise<Response> }): Served
}

const peers = new WeakMap<Request, () => string | undefined>()

/**
 * Remembers how to find the TCP peer address of a request (called by the runtime adapters).
 * It is looked up only when asked for: behind a trusted proxy, or on key-limited routes, the
 * lookup (a native call per request) is not needed at all.
 */
export function rememberPeer(request: Request, address: () => string | undefined): void {
  peers.set(request, address)
}

/** The TCP peer address of a request, or null when the runtime did not record one (app.handle in tests). */
export function peerAddress(request: Request): string | null {
  return peers.get(request)?.() ?? null
}
