import { Elysia } from 'elysia'
import type { Email, EmailStatus } from '../../db/email-store.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { listed, page, requireAdmin } from './guard.ts'
import { presentRow } from '../../domain/record.ts'

const STATUSES: EmailStatus[] = ['queued', 'sent', 'logged', 'failed']

/** An email as the operator sees it: who, what, and how its sending went; never its body. */
function presentEmail(email: Email): Record<string, unknown> {
  const { textBody: _t, htmlBody: _h, secret: _s, claimedUntil: _c, toAddress, ...rest } = email
  return { ...presentRow('email', rest), to: toAddress }
}

/** GET /api/v1/admin/emails (docs/decisions.md, Email): the outbox, newest first, `?program_id=` and `?status=`. */
export function emailAdminRoutes(deps: Deps) {
  const { emails, lists } = deps.database.stores
  return new Elysia({ name: 'admin-emails' })
    .onBeforeHandle(({ request }) => requireAdmin(deps, request))
    .get(
      '/api/v1/admin/emails',
      ({ query }: { query: Record<string, string | undefined> }) => {
        const { limit, cursor } = page(query)
        const status = query.status as EmailStatus | undefined
        if (status !== undefined && !STATUSES.includes(status))
          throw new HttpError(400, 'status must be one of: queued, sent, logged, failed')
        let programId: number | undefined
        if (query.program_id !== undefined) {
          programId = Number(query.program_id)
          if (!Number.isSafeInteger(programId) || programId < 1) throw new HttpError(400, 'program_id must be the id of a program')
          if (!lists.programExists(programId)) throw new HttpError(404, 'Program not found')
        }
        return listed(emails.page({ programId, status }, limit + 1, cursor), limit, presentEmail)
      },
      {
        detail: doc('Emails queued, sent, logged (written to stderr without SMTP_URL) or failed, newest first', 'operator', {
          security: 'adminToken',
        }),
      },
    )
}
