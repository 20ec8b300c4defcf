import { and, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Connection } from './open.ts'
import { type EmailKind, emails } from './schema.ts'

export type Email = typeof emails.$inferSelect
export type EmailStatus = Email['status']

/** An email to queue: who, what, and whether its body holds a sign-in link (blanked once sent). */
export interface NewEmail {
  programId: number | null
  kind: EmailKind
  to: string
  subject: string
  text: string
  html: string
  secret?: boolean
}

/** What a sent body holding a link is replaced with. */
const REDACTED = '(sent; this email held a one-time sign-in link, which is kept nowhere once sent)'

/**
 * The email outbox (src/outbox/README.md). queue() runs inside the writer unit of the change that
 * causes the email; claim() and the record methods run in the sender's own units.
 */
export class EmailStore {
  constructor(private readonly connection: Connection) {}

  /** Queues an email, due at once. */
  queue(email: NewEmail, now: number): number {
    return this.connection.db
      .insert(emails)
      .values({
        programId: email.programId,
        kind: email.kind,
        toAddress: email.to,
        subject: email.subject,
        textBody: email.text,
        htmlBody: email.html,
        secret: email.secret ?? false,
        nextAttemptAt: now,
        createdAt: now,
      })
      .returning({ id: emails.id })
      .get().id
  }

  /** Whether an email may be due at `now` (a read outside the writer: an idle server writes nothing). */
  anyDue(now: number): boolean {
    return (
      this.connection.db
        .select({ id: emails.id })
        .from(emails)
        .where(and(eq(emails.status, 'queued'), lte(emails.nextAttemptAt, now)))
        .limit(1)
        .get() !== undefined
    )
  }

  /** Releases every claim: at start, the one process that sends is this one (docs/decisions.md: one machine). */
  releaseClaims(): void {
    this.connection.db.update(emails).set({ claimedUntil: null }).where(eq(emails.status, 'queued')).run()
  }

  /**
   * Claims up to `limit` queued emails due at `now` whose lease (if any) has run out, leasing
   * them until `now + leaseMs`: a sender that dies mid-send leaves them to be claimed again.
   */
  claim(now: number, leaseMs: number, limit: number): Email[] {
    const { db } = this.connection
    const due = db
      .select({ id: emails.id })
      .from(emails)
      .where(
        and(eq(emails.status, 'queued'), lte(emails.nextAttemptAt, now), or(isNull(emails.claimedUntil), lt(emails.claimedUntil, now))),
      )
      .orderBy(emails.nextAttemptAt)
      .limit(limit)
      .all()
    if (due.length === 0) return []
    return db
      .update(emails)
      .set({ claimedUntil: now + leaseMs })
      .where(
        inArray(
          emails.id,
          due.map((d) => d.id),
        ),
      )
      .returning()
      .all()
  }

  /** Records a delivered email: sent (or, without SMTP, logged to stderr), its link-holding body blanked. */
  markSent(id: number, now: number, status: 'sent' | 'logged' = 'sent'): void {
    this.connection.db
      .update(emails)
      .set({
        status,
        sentAt: now,
        attempts: sql`${emails.attempts} + 1`,
        claimedUntil: null,
        lastError: null,
        textBody: sql`CASE WHEN ${emails.secret} THEN ${REDACTED} ELSE ${emails.textBody} END`,
        htmlBody: sql`CASE WHEN ${emails.secret} THEN ${REDACTED} ELSE ${emails.htmlBody} END`,
      })
      .where(eq(emails.id, id))
      .run()
  }

  /** Records a failed attempt: retried at `nextAttemptAt`, or failed for good when it is null. */
  markAttemptFailed(id: number, error: string, nextAttemptAt: number | null): void {
    this.connection.db
      .update(emails)
      .set({
        attempts: sql`${emails.attempts} + 1`,
        claimedUntil: null,
        lastError: error.slice(0, 500),
        ...(nextAttemptAt === null ? { status: 'failed' as const } : { nextAttemptAt }),
      })
      .where(eq(emails.id, id))
      .run()
  }

  /** A program's latest emails whose last attempt failed (failed, or queued for a retry), newest first. */
  problems(programId: number, limit: number): Email[] {
    return this.connection.db
      .select()
      .from(emails)
      .where(and(eq(emails.programId, programId), sql`${emails.lastError} IS NOT NULL`, sql`${emails.status} <> 'sent'`))
      .orderBy(desc(emails.id))
      .limit(limit)
      .all()
  }

  /** A page of emails, newest first, filtered by program and status, ids below `cursor`. */
  page(filter: { programId?: number; status?: EmailStatus }, limit: number, cursor: number | null): Email[] {
    return this.connection.db
      .select()
      .from(emails)
      .where(
        and(
          filter.programId === undefined ? undefined : eq(emails.programId, filter.programId),
          filter.status === undefined ? undefined : eq(emails.status, filter.status),
          cursor === null ? undefined : lt(emails.id, cursor),
        ),
      )
      .orderBy(desc(emails.id))
      .limit(limit)
      .all()
  }
}
