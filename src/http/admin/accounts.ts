import { noBody } from '../pipeline/body.ts'
import { randomUUID } from 'node:crypto'
import { Elysia } from 'elysia'
import { signIdToken } from '../../domain/id-token.ts'
import { iso } from '../../domain/time.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { idParam, requireAdmin } from './guard.ts'
import { CreateAccount } from './schemas.ts'

const checkCreate = bodyChecker(CreateAccount)
/** docs/decisions.md: an id_token is accepted by the CLI callback for 10 minutes. */
export const ID_TOKEN_LIFETIME_S = 600

/** The operator API's account routes: create (with its advertiser), suspend, id-token. */
export function accountAdminRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const findAccount = (id: number) => {
    const account = stores.accounts.findAccount(id)
    if (!account) throw new HttpError(404, 'Account not found')
    return account
  }
  const setSuspended =
    (suspended: boolean) =>
    async ({ params, body }: { params: { id: string }; body: unknown }) => {
      noBody(body)
      const id = idParam(params.id, 'Account')
      await writer.run(() => {
        findAccount(id)
        stores.accounts.setSuspended(id, suspended)
        // Its dashboard sessions and unused links end with the suspension; unsuspending brings
        // none back (docs/decisions.md, Hostile input, turn 3).
        if (suspended) stores.webSessions.revokeAllOf({ kind: 'account', accountId: id }, deps.clock.now())
      })
      return ok({ account_id: id, suspended })
    }

  return new Elysia({ name: 'admin-accounts' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .post(
      '/api/v1/admin/accounts',
      async ({ body, set }) => {
        const input = checkCreate(body)
        const created = await writer.run(() =>
          stores.accounts.createAccount({ email: input.email.toLowerCase(), name: input.name, createdAt: deps.clock.now() }),
        )
        set.status = 201
        return ok({ account_id: created.accountId, advertiser_id: created.advertiserId })
      },
      { detail: doc('Create an account and its advertiser', 'operator', { security: 'adminToken', body: CreateAccount }) },
    )
    .post('/api/v1/admin/accounts/:id/suspend', setSuspended(true), {
      detail: doc('Suspend an account (CLI login answers 403)', 'operator', { security: 'adminToken' }),
    })
    .post('/api/v1/admin/accounts/:id/unsuspend', setSuspended(false), {
      detail: doc('Lift a suspension', 'operator', { security: 'adminToken' }),
    })
    .post(
      '/api/v1/admin/accounts/:id/id-token',
      ({ params, body }) => {
        noBody(body)
        const account = findAccount(idParam(params.id, 'Account'))
        const iat = Math.floor(deps.clock.now() / 1000)
        const claims = {
          sub: account.id,
          iss: deps.config.publicBaseUrl,
          aud: 'svc-cli' as const,
          iat,
          exp: iat + ID_TOKEN_LIFETIME_S,
          jti: randomUUID(),
        }
        return ok({ id_token: signIdToken(claims, deps.secret), expires_at: iso(claims.exp * 1000) })
      },
      { detail: doc('Issue an id_token for the CLI login callback (valid 10 minutes)', 'operator', { security: 'adminToken' }) },
    )
}
