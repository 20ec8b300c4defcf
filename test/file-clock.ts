import { readFileSync, writeFileSync } from 'node:fs'

/**
 * A manual clock kept in a file, so that a test process can move the time of a server running
 * in another process (the HTTP suites against Deno: test/deno-server.ts reads it, helpers.ts moves it).
 */
export class FileClock {
  constructor(private readonly path: string) {}
  now(): number {
    return Number(readFileSync(this.path, 'utf8'))
  }
  advance(ms: number): void {
    this.set(this.now() + ms)
  }
  set(ms: number): void {
    writeFileSync(this.path, String(ms))
  }
}
