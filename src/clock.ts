import { readFileSync, writeFileSync } from 'node:fs'

/** The one source of time for every time-dependent rule (docs/decisions.md, Runtime and shape). Epoch milliseconds. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** A clock that tests move by hand instead of sleeping. */
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
 * Test only (SVC_TEST_CLOCK_FILE): a manual clock kept in a file, so that a test process can move
 * the time of a server running in another process (the HTTP suite against Deno).
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
