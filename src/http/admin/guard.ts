import { type Actor, OPERATOR } from '../../domain/audit.ts'
import { sameDigest, hashSecret } from '../../db/credentials.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { auth, shared } from '../../domain/messages.ts'
import { readBearer } from '../pipeline/auth.ts'
import { networkOf } from '../../domain/network.ts'
import { stateOf } from '../pipeline/request-state.ts'

/** Wrong admin tokens a client IP may send a minute before it is refused (docs/decisions.md, Hostile input). */
const WRONG_TOKENS_PER_MINUTE = 10

/**
 * The operator API's gate (docs/decisions.md): 404 as if absent when SVC_ADMIN_TOKEN is unset,
 * 401 for a wrong or missing token, compared in constant time. An IP that sent 10 wrong tokens
 * within a minute gets 429 for the rest of that minute, right token or not, so that guessing
 * is bounded.
 */
export function requireAdmin(deps: Deps, request: Request): void {
  const expected = deps.config.adminToken
  if (expected === null) throw new HttpError(404, shared.notFound)
  const bucket = `admin-wrong-token:ip:${networkOf(stateOf(request).ip)}`
  const limit = Math.max(1, Math.floor(WRONG_TOKENS_PER_MINUTE * deps.config.rateLimitScale))
  const seen = deps.limiter.peek(bucket, limit)
  if (!seen.allowed) {
    const retryAfter = Math.max(1, Math.ceil((seen.resetAt - deps.clock.now()) / 1000))
    throw new HttpError(429, auth.adminTooManyFailures, { headers: { 'Retry-After': String(retryAfter) } })
  }
  const bearer = readBearer(request)
  if (bearer.kind !== 'token' || !sameDigest(hashSecret(bearer.token), hashSecret(expected))) {
    deps.limiter.take(bucket, limit)
    throw new HttpError(401, auth.adminUnauthorized)
  }
}

/** A numeric id from a path parameter, or the 404 of `what` (a non-number names nothing). */
export function idParam(value: string, what: string): number {
  const id = Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, `${what} not found`)
  return id
}

/** `?limit` (1–200, default 50) and `?cursor` (the last id seen) of the list routes. */
export function page(query: Record<string, string | undefined>): { limit: number; cursor: number | null } {
  const limit = query.limit === undefined ? 50 : Number(query.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new HttpError(400, 'limit must be a whole number from 1 to 200')
  const cursor = query.cursor === undefined ? null : Number(query.cursor)
  if (cursor !== null && (!Number.isSafeInteger(cursor) || cursor < 1))
    throw new HttpError(400, 'cursor must be an id from a previous page')
  return { limit, cursor }
}

/** A list answer: newest first, with the cursor of the next page (null on the last). */
export function listed<T extends { id: number }>(rows: T[], limit: number, present: (row: T) => unknown) {
  const more = rows.length > limit
  const pageRows = more ? rows.slice(0, limit) : rows
  return { data: pageRows.map(present), error: null, next_cursor: more ? String(pageRows[pageRows.length - 1].id) : null }
}

/** The operator as an audit actor (docs/decisions.md, Teams and the audit log): `operator`, from the request's IP. */
export function operatorActor(request: Request): Actor {
  return { actor: OPERATOR, ip: stateOf(request).ip }
}
