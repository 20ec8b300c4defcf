/** The one source of time for every time-dependent rule (docs/decisions.md, Runtime and shape). Epoch milliseconds. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
