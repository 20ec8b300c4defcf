/**
 * occurred_at of a sale (docs/api.md, Track sale and Limits): ISO 8601 with an offset, a real
 * calendar time, at most 30 days old and at most 5 minutes ahead of the server clock.
 */

export const MAX_AGE_MS = 30 * 86_400_000
export const MAX_AHEAD_MS = 5 * 60_000

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):?(\d{2}))$/i

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * Epoch ms of an ISO 8601 time with offset ("2026-05-31T10:00:00Z", "…+07:00"), or null when the
 * text lacks an offset or names no real time (February 30, hour 24, offset beyond ±18:00).
 */
export function parseOccurredAt(text: string): number | null {
  const m = ISO.exec(text)
  if (!m) return null
  const [year, month, day, hour, minute, second = 0] = m.slice(1, 7).map((v) => (v === undefined ? 0 : Number(v)))
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null
  if (hour > 23 || minute > 59 || second > 59) return null
  let offsetMinutes = 0
  if (m[8].toUpperCase() !== 'Z') {
    const hours = Number(m[9])
    const mins = Number(m[10])
    if (hours > 18 || mins > 59) return null
    offsetMinutes = (m[8][0] === '-' ? -1 : 1) * (hours * 60 + mins)
  }
  const fraction = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0
  return Date.UTC(year, month - 1, day, hour, minute, second, fraction) - offsetMinutes * 60_000
}

/** Whether an occurred_at instant lies in [now − 30 days, now + 5 minutes], both ends included. */
export function occurredAtInBounds(occurredAt: number, now: number): boolean {
  return occurredAt >= now - MAX_AGE_MS && occurredAt <= now + MAX_AHEAD_MS
}
