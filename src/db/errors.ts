/**
 * Storage errors as values: the only place that reads SQLite's error text.
 * Callers branch on `{ kind: 'taken', on }`, never on a message.
 */

/** The UNIQUE columns a caller may collide on, named as the API names them. */
export type UniqueColumn = 'short_link' | 'stripe_account_id' | 'transaction_id' | 'event_id' | 'code' | 'email'

/** A write refused because a UNIQUE column already holds the value. */
export interface Taken {
  kind: 'taken'
  on: UniqueColumn
}

const columns: Record<string, UniqueColumn> = {
  'links.short_link': 'short_link',
  'programs.stripe_account_id': 'stripe_account_id',
  'sales.transaction_id': 'transaction_id',
  'processor_events.event_id': 'event_id',
  // coupons_program_code (program_id, code_key): SQLite names its first column.
  'coupons.program_id': 'code',
  // members_account_email (account_id, email_key), current members only.
  'members.account_id': 'email',
}

/**
 * The UNIQUE column a failed write collided on (SQLite: "UNIQUE constraint failed: table.column"),
 * or null for any other error, including a UNIQUE violation on a column no caller expects.
 */
export function uniqueViolation(error: unknown): Taken | null {
  const match = /UNIQUE constraint failed: ([\w.]+)/.exec(String((error as Error)?.message ?? error))
  const on = match ? columns[match[1]] : undefined
  return on ? { kind: 'taken', on } : null
}
