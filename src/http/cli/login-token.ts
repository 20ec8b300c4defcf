import type { Account } from '../../db/schema.ts'
import { readBearer } from '../pipeline/auth.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { cli } from '../../domain/messages.ts'

/** The 401 texts of the two login-token routes (docs/errors.md, CLI errors). */
const texts = {
  init: { missing: cli.initAuthRequired, invalid: cli.initInvalidToken, account: cli.initAccountMissing },
  programs: { missing: cli.programsMissingHeader, invalid: cli.programsInvalidToken, account: cli.programsAccountMissing },
} as const

/**
 * The account behind an account login token (docs/api.md, Authentication 2), for init or programs.
 * Throws 401 in that route's words when the header is absent or empty, the token is unknown or
 * expired, or its account is gone; 403 ACCOUNT_BLOCKED when the account is suspended, since a
 * suspension must also stop tokens issued before it (the callback alone would not).
 */
export function requireLoginToken(deps: Deps, request: Request, route: keyof typeof texts): Account {
  const words = texts[route]
  const bearer = readBearer(request)
  if (bearer.kind === 'oversized') throw new HttpError(401, words.invalid)
  if (bearer.kind !== 'token') throw new HttpError(401, words.missing)
  const { stores } = deps.database
  const match = stores.cli.findLoginToken(bearer.token, deps.clock.now())
  if (match.kind !== 'valid') throw new HttpError(401, words.invalid)
  const account = stores.accounts.findAccount(match.accountId)
  if (!account) throw new HttpError(401, words.account)
  if (account.suspended) throw new HttpError(403, cli.suspended, { details: { code: 'ACCOUNT_BLOCKED' } })
  return account
}
