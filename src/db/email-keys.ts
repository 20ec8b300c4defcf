import { applicantKey, emailKey } from '../domain/email.ts'
import type { SqliteDatabase } from '../runtime/runtime.ts'

/**
 * A partner's email with the keys it is compared by (docs/decisions.md, Safety, third round):
 * every write of a partner's email goes through here, so that no row's keys lag its email.
 */
export function partnerEmail(email: string | null | undefined): {
  email?: string | null
  emailKey?: string | null
  applicantKey?: string | null
} {
  if (email === undefined) return {}
  if (email === null) return { email: null, emailKey: null, applicantKey: null }
  return { email, emailKey: emailKey(email), applicantKey: applicantKey(email) }
}

/**
 * Migration 0019's second half: the keys of emails stored without them (before 0019), made here
 * since SQLite has no NFKC. Run at every open, in its transaction: after a crash between the
 * migration and this, the next start finishes it; with every key made, two indexed reads find none.
 */
export function keyStoredEmails(client: SqliteDatabase): void {
  const accounts = client.prepare('SELECT id, email FROM accounts WHERE email_key IS NULL').all() as { id: number; email: string }[]
  const setAccount = client.prepare('UPDATE accounts SET email_key = ? WHERE id = ?')
  for (const row of accounts) setAccount.run(emailKey(row.email), row.id)
  const partners = client.prepare('SELECT id, email FROM partners WHERE email_key IS NULL AND email IS NOT NULL').all() as {
    id: number
    email: string
  }[]
  const setPartner = client.prepare('UPDATE partners SET email_key = ?, applicant_key = ? WHERE id = ?')
  for (const row of partners) setPartner.run(emailKey(row.email), applicantKey(row.email), row.id)
}
