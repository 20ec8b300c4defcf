import { readFileSync, writeFileSync } from 'node:fs'
import type { Clock } from '../src/clock.ts'

/** A clock that tests move by hand instead of sleeping (the server in the test process). */
export class ManualClock implements Clock {
  constructor(private current = Date.now()) {}
  now(): number {
    return this.current
  }
  advance(ms: number): void {
    this.current += ms
  }
  set(ms: number): void {
    this.current = ms
  }
}

/**
 * A manual clock kept in a file, so that a test process can move the time of a server running
 * in another process (the HTTP suites against Deno: test/deno-server.ts reads it, helpers.ts moves it).
 */
export class FileClock implements Clock {
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
