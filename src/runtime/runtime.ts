/**
 * What the app needs from its host runtime. Only src/runtime/* may import bun:* or touch Deno,
 * so that the same Elysia app serves on Bun and on Deno (docs/decisions.md, Runtime and shape).
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

/** The TCP peer address of the request being answered, looked up on demand. */
export type PeerAddress = () => string | undefined

export interface Served {
  port: number
  /** Closes the listener and every connection now (server.ts has already drained the requests). */
  stop(): Promise<void>
}

export interface Runtime {
  name: 'bun' | 'deno'
  /**
   * Whether the server reads and drops a request body the app answered without reading, and keeps
   * the connection: Bun does (at any size up to its own limit), so the app need not wait for a
   * body it refuses; Deno closes the connection after such an answer, so there the app drains it.
   */
  discardsUnreadBodies: boolean
  openSqlite(path: string): SqliteDatabase
  /**
   * Serves fetch. `peer` finds the TCP peer address of the request; it is called only when
   * asked (behind a trusted proxy, or on key-limited routes, the native lookup is not needed).
   */
  serve(options: { port: number; hostname: string; fetch: (request: Request, peer: PeerAddress) => Response | Promise<Response> }): Served
}
