/**
 * What a use case needs to queue an email (docs/decisions.md, Email): whether email is on at all
 * (SMTP_URL set; unset, nothing is queued and pages say to ask the operator), the base of every
 * link, and a nudge for the sender once the unit has committed.
 */
export interface Mail {
  on: boolean
  baseUrl: string
  /** Looks for due emails now: called after the writer unit that queued one has committed. */
  wake(): void
}
