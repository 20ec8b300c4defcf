/**
 * What a use case needs to queue an email (docs/decisions.md, Email; The first hour): how it
 * leaves (`smtp` with SMTP_URL, else `log`: written to the server's stderr, and pages say "the
 * link was written to the server's log"), the base of every link, and a nudge for the sender once
 * the unit has committed. Every email is queued either way: nothing is lost.
 */
export interface Mail {
  /** `off`: no SMTP_URL and MAIL_LOG=off: emails are only recorded (as logged), nobody sees their links. */
  delivery: 'smtp' | 'log' | 'off'
  baseUrl: string
  /** Looks for due emails now: called after the writer unit that queued one has committed. */
  wake(): void
}
