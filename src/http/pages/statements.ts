import { Elysia } from 'elysia'
import type { SessionOf } from '../../db/web-session-store.ts'
import { ledgerKey, makeStatement } from '../../tracking/statements.ts'
import type { Deps } from '../deps.ts'
import { HttpError, json } from '../pipeline/envelope.ts'
import { partner as messages, shared } from '../../domain/messages.ts'
import { seeOther } from './layout.ts'
import { signedIn } from './session.ts'

/** A JSON document never cached; `name` makes it a download of that file name. */
const jsonFile = (value: unknown, name?: string) =>
  json(value, 200, {
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(name ? { 'content-disposition': `attachment; filename="${name}"` } : {}),
  })

/**
 * The public key statements are signed with, and a signed-in partner's statements as bare JSON
 * files (docs/ledger.md; the portal links this month's and the past months').
 */
export function statementRoutes(deps: Deps) {
  return (
    new Elysia({ name: 'statements' })
      // Any page may read the key (a saved /verify page, another verifier): it is public by design.
      .get(
        '/.well-known/svc-ledger-key',
        () => {
          const answer = jsonFile(ledgerKey(deps).jwk)
          answer.headers.set('access-control-allow-origin', '*')
          return answer
        },
        { detail: { hide: true } },
      )
      .get(
        '/partner/statements/:file',
        async ({ request, params }) => {
          const signed = signedIn(deps, request)
          if (signed?.session.kind !== 'partner') return seeOther('/partner/sign-in')
          const { partnerId, programId } = signed.session as Extract<SessionOf, { kind: 'partner' }>
          if (!params.file.endsWith('.json')) throw new HttpError(404, shared.notFound)
          const month = params.file.slice(0, -'.json'.length)
          const answer = await makeStatement(deps, programId, partnerId, month)
          if (answer.kind === 'invalid') throw new HttpError(400, answer.message)
          if (answer.kind === 'not_found') throw new HttpError(404, messages.notFound)
          return jsonFile(answer.statement, `statement-${programId}-${partnerId}-${month}.json`)
        },
        { detail: { hide: true } },
      )
  )
}
