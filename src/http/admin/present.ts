import { maskKey } from '../../db/credentials.ts'
import type { Partner } from '../../db/partner-store.ts'
import type { ApiKey, Program } from '../../db/schema.ts'
import { iso } from '../../domain/time.ts'

/**
 * A stored row as the operator API shows it: snake_case keys, times (`…At`, epoch ms) as ISO 8601,
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

/** A program with its key masked and its webhook secrets write-only (shown as how many are set). */
export function presentProgram(program: Program, key: ApiKey | null): Record<string, unknown> {
  const { stripeWebhookSecrets, ...rest } = program
  return {
    ...presentRow('program', rest),
    stripe_webhook_secret: stripeWebhookSecrets.length ? `whsec_${'•'.repeat(12)}` : null,
    api_key: key ? maskKey(key.keyPrefix) : null,
    api_key_rotation: key?.rotateBy ? { marked_at: iso(key.rotationMarkedAt), rotate_by: iso(key.rotateBy) } : null,
  }
}

/** A partner as every partner read shows it: with its status, terms and payout details; never its deletion mark. */
export function presentPartner(partner: Partner): Record<string, unknown> {
  const { deletedAt: _, ...rest } = partner
  return presentRow('partner', rest)
}
