// The Deno adapter: node:sqlite (built into Deno) behind bun:sqlite's shape, and Deno.serve.
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { Runtime, SqliteDatabase, SqliteStatement } from './runtime.ts'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const Deno: any

class Statement implements SqliteStatement {
  constructor(private readonly statement: StatementSync) {}
  run(...params: unknown[]) {
    return this.statement.run(...(params as never[]))
  }
  get(...params: unknown[]) {
    // bun:sqlite answers null for no row; node:sqlite answers undefined.
    return this.statement.get(...(params as never[])) ?? null
  }
  all(...params: unknown[]) {
    return this.statement.all(...(params as never[]))
  }
  values(...params: unknown[]) {
    this.statement.setReturnArrays(true)
    try {
      return this.statement.all(...(params as never[])) as unknown as unknown[][]
    } finally {
      this.statement.setReturnArrays(false)
    }
  }
}

class Connection implements SqliteDatabase {
  constructor(private readonly database: DatabaseSync) {}
  exec(sql: string) {
    this.database.exec(sql)
  }
  prepare(sql: string) {
    return new Statement(this.database.prepare(sql))
  }
  close() {
    this.database.close()
  }
}

export const denoRuntime: Runtime = {
  name: 'deno',
  discardsUnreadBodies: false,
  openSqlite(path) {
    return new Connection(new DatabaseSync(path))
  },
  serve({ port, hostname, fetch }) {
    const server = Deno.serve({ port, hostname, onListen() {} }, (request: Request, info: { remoteAddr: { hostname: string } }) => {
      return fetch(request, () => info.remoteAddr?.hostname)
    })
    // server.ts drains first; shutdown() then closes the listener and the idle connections.
    return { port: server.addr.port, stop: () => server.shutdown() }
  },
}
