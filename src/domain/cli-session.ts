// Time rules of the CLI routes (docs/api.md: CLI login session lifetime; synthetic chain cap).
// Pure: every function takes `now` (epoch ms) from the caller's clock.

/** docs/api.md, Limits: a CLI login session lives 5 minutes. */
export const SESSION_LIFETIME_MS = 5 * 60_000
/**
 * Pending login sessions one client IP may hold at once (our choice; docs/cli-server.md): well under
 * the 300 the 60-a-minute limit would let in over a session's 5 minutes, well over what a team or a
 * test suite behind one address starts.
 */
export const PENDING_SESSIONS_PER_IP = 100
/** A login token works for 30 days after sign-in (our choice; docs/cli-server.md). */
export const LOGIN_TOKEN_LIFETIME_MS = 30 * 86_400_000
/** Sessions older than this are deleted when a new one starts: nothing can use them any more. */
export const SESSION_RETENTION_MS = 86_400_000

/** docs/api.md, Limits: 10 synthetic chains per program per hour. */
export const CHAIN_CAP = 10
export const CHAIN_WINDOW_MS = 3_600_000

/** When a session created at `createdAt` stops accepting a callback (epoch ms). */
export function sessionExpiresAt(createdAt: number): number {
  return createdAt + SESSION_LIFETIME_MS
}

/** Whether a session is older than its lifetime at `now` ("older than 5 minutes": the 5th minute itself still counts). */
export function sessionExpired(createdAt: number, now: number): boolean {
  return now > sessionExpiresAt(createdAt)
}

export type ChainDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number }

/**
 * Whether one more chain may run, given the start times of the program's chains within the
 * last hour: when allowed, how many more the hour leaves after this one; when refused,
 * retryAfterSeconds says when the oldest run that keeps the cap full leaves the window.
 */
export function decideChain(recentRuns: number[], now: number): ChainDecision {
  const inWindow = recentRuns.filter((at) => at > now - CHAIN_WINDOW_MS).sort((a, b) => a - b)
  if (inWindow.length < CHAIN_CAP) return { ok: true, remaining: CHAIN_CAP - inWindow.length - 1 }
  const freedAt = inWindow[inWindow.length - CHAIN_CAP] + CHAIN_WINDOW_MS
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now) / 1000)) }
}
