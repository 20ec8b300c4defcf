/** An epoch-ms time as ISO 8601 (UTC), as every answer and record shows times; null stays null. */
export function iso(ms: number): string
export function iso(ms: number | null | undefined): string | null
export function iso(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString()
}
