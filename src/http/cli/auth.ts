import { noBody } from '../pipeline/body.ts'
import { Elysia, t } from 'elysia'
import { hashSecret } from '../../db/credentials.ts'
import { PENDING_SESSIONS_PER_IP, SESSION_LIFETIME_MS, sessionExpired, sessionExpiresAt } from '../../domain/cli-session.ts'
import { verifyIdToken } from '../../domain/id-token.ts'
import { iso } from '../../domain/time.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { cli } from '../../domain/messages.ts'
import { networkOf } from '../../domain/network.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { bodyChecker } from '../pipeline/validate.ts'

/** POST /api/v1/cli/auth/callback: both fields are required, and either missing answers the one message. */
export const CallbackBody = t.Object({
  state: t.String({ minLength: 1, error: cli.callbackMissing, description: 'data.state of auth/start' }),
  id_token: t.String({ minLength: 1, error: cli.callbackMissing, description: 'Issued by POST /api/v1/admin/accounts/:id/id-token' }),
})
const checkCallback = bodyChecker(CallbackBody)

/**
 * The CLI login flow (docs/api.md, Customer states: CLI login session): start creates a pending session,
 * callback signs it in with an id_token, poll hands the login token out exactly once.
 */
export function cliAuthRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const sessions = stores.cli
  const now = () => deps.clock.now()

  return new Elysia({ name: 'cli-auth' })
    .post(
      '/api/v1/cli/auth/start',
      async ({ request, body }) => {
        noBody(body)
        // Counted by the client's network: an IPv6 holder's /64 is one client (docs/decisions.md, Safety, third round).
        const ip = networkOf(stateOf(request).ip)
        const session = await writer.run(() => {
          const at = now()
          // Pending sessions are capped per client IP: starting them costs nothing, keeping them a row each.
          const pending = sessions.pendingSessionTimes(ip, at - SESSION_LIFETIME_MS)
          if (pending.length >= PENDING_SESSIONS_PER_IP) {
            const freedAt = sessionExpiresAt(pending[pending.length - PENDING_SESSIONS_PER_IP])
            const retryAfter = Math.max(1, Math.ceil((freedAt - at) / 1000))
            throw new HttpError(429, cli.tooManySessions, {
              typed: true,
              code: 'rate_limited',
              extra: { status: 429, retry_after_seconds: retryAfter },
              headers: { 'Retry-After': String(retryAfter) },
            })
          }
          return sessions.createSession(at, ip)
        })
        return ok({
          state: session.state,
          login_url: `${deps.config.publicBaseUrl}/cli/login?state=${encodeURIComponent(session.state)}`,
          expires_at: iso(sessionExpiresAt(session.createdAt)),
        })
      },
      {
        detail: doc('Start a CLI login session', 'cli', {
          description: 'Answers 200 with data.state, data.login_url and data.expires_at (5 minutes).',
        }),
      },
    )

    .post(
      '/api/v1/cli/auth/callback',
      async ({ body, request }) => {
        const input = checkCallback(body)
        // Every refused id_token gets the same answer, `details` empty as on every 401 (docs/errors.md):
        // a replayed one is refused like a forged one. Why it was refused goes to the operator's log.
        const refuse: (reason: string) => never = (reason) => {
          deps.log({ level: 'warn', msg: 'id_token refused', reason, request_id: stateOf(request).id, path: '/api/v1/cli/auth/callback' })
          throw new HttpError(401, cli.invalidIdToken)
        }
        await writer.run(() => {
          const at = now()
          const session = sessions.findSession(input.state)
          // A signed-in or consumed session reads as "already used": its state cannot sign in twice.
          if (session?.status !== 'pending') throw new HttpError(404, cli.callbackNotFound)
          if (sessionExpired(session.createdAt, at)) throw new HttpError(400, cli.sessionExpired)
          // A refused id_token leaves the session pending, so that a corrected token can still sign in.
          const check = verifyIdToken(input.id_token, deps.secret, deps.config.publicBaseUrl, at)
          if (!check.ok) refuse(check.reason)
          const account = stores.accounts.findAccount(check.claims.sub)
          if (!account) refuse('unknown_account')
          if (account.suspended) throw new HttpError(403, cli.suspended, { details: { code: 'ACCOUNT_BLOCKED' } })
          // An id_token signs in once (docs/decisions.md, Hostile input); this unit's rollback on any
          // later failure leaves it unused.
          if (!sessions.useIdToken(hashSecret(input.id_token), check.claims.exp * 1000, at)) refuse('used')
          sessions.completeSession(session, account.id, at)
        })
        return ok({ state: input.state, status: 'complete' })
      },
      {
        detail: doc('Sign a CLI login session in with an id_token', 'cli', {
          body: CallbackBody,
          description:
            'Answers data.status `complete`. A refused id_token (malformed, tampered, expired, foreign, of an unknown account, or used already: an id_token signs in once) answers 401 `Invalid id_token` with empty details; the reason is in the server log.',
        }),
      },
    )

    .get(
      '/api/v1/cli/auth/poll',
      async ({ query }) => {
        const state = typeof query.state === 'string' ? query.state.trim() : ''
        if (!state) throw new HttpError(400, cli.pollMissingState)
        // Read and update in one writer unit: two concurrent polls cannot both see `complete`.
        const data = await writer.run(() => {
          const at = now()
          const session = sessions.findSession(state)
          if (!session) throw new HttpError(404, cli.pollNotFound)
          if (session.status === 'consumed') throw new HttpError(400, cli.pollConsumed)
          if (session.status === 'pending') {
            return sessionExpired(session.createdAt, at)
              ? { status: 'expired' }
              : { status: 'pending', expires_at: iso(sessionExpiresAt(session.createdAt)) }
          }
          // docs/api.md: a session older than 5 minutes polls as expired, signed in or not; its
          // uncollected token is withdrawn.
          if (!session.pendingToken || sessionExpired(session.createdAt, at)) {
            sessions.abandonSession(session)
            return { status: 'expired' }
          }
          sessions.consumeSession(session)
          return { status: 'complete', token: session.pendingToken }
        })
        return ok(data)
      },
      {
        detail: doc('Poll a CLI login session', 'cli', {
          description: 'Query `state`. data.status is pending (with expires_at), complete (with data.token, handed out once) or expired.',
        }),
      },
    )
}
