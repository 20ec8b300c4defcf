import { iso } from './time.ts'

/**
 * A stored row as the operator API (and the webhook events, which carry the same objects) shows it: snake_case keys, times (`…At`, epoch ms) as ISO 8601,
 * the row's id under `<name>_id`.
 */
export function presentRow(name: string, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) {
    const snake = key === 'id' ? `${name}_id` : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    out[snake] = key.endsWith('At') || key === 'rotateBy' ? iso(value as number | null) : value
  }
  return out
}
