/** The one source of time for every time-dependent rule (DECISIONS.md, Time). Epoch milliseconds. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
