import { maskKey } from '../../db/credentials.ts'
import { partnerData } from '../../tracking/partner-status.ts'
import type { ApiKey, Program } from '../../db/schema.ts'
import { presentRow } from '../../domain/record.ts'
import { iso } from '../../domain/time.ts'

/** A program with its key masked and its webhook secrets write-only (shown as how many are set). */
export function presentProgram(program: Program, key: ApiKey | null): Record<string, unknown> {
  const { stripeWebhookSecrets, paddleWebhookSecret, lemonsqueezyWebhookSecret, polarWebhookSecret, ...rest } = program
  const masked = (secret: string | null) => (secret === null ? null : '•'.repeat(12))
  return {
    ...presentRow('program', rest),
    stripe_webhook_secret: stripeWebhookSecrets.length ? `whsec_${'•'.repeat(12)}` : null,
    paddle_webhook_secret: masked(paddleWebhookSecret),
    lemonsqueezy_webhook_secret: masked(lemonsqueezyWebhookSecret),
    polar_webhook_secret: masked(polarWebhookSecret),
    api_key: key ? maskKey(key.keyPrefix) : null,
    api_key_rotation: key?.rotateBy ? { marked_at: iso(key.rotationMarkedAt), rotate_by: iso(key.rotateBy) } : null,
  }
}

/** A partner as every partner read shows it (tracking/partner-status.ts: the events carry the same). */
export const presentPartner = partnerData
