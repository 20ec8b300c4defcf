import type { AuditRow } from '../db/schema.ts'
import { iso } from '../domain/time.ts'

/** An audit entry as the operator API and the Activity page show it (docs/decisions.md, Teams and the audit log). */
export function presentAudit(row: AuditRow): Record<string, unknown> & { audit_id: number } {
  return {
    audit_id: row.id,
    at: iso(row.at),
    actor: row.actor,
    action: row.action,
    object_type: row.objectType,
    object_id: row.objectId,
    program_id: row.programId,
    ip: row.ip,
    details: JSON.parse(row.details) as Record<string, unknown>,
  }
}

/**
 * What a settings change changed, for an audit entry's details: each field of `after` whose value
 * differs from `before`'s, as `{ from, to }`. Secrets are never given here (callers name them only).
 */
export function changesOf(before: object, after: object): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {}
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue
    const from = (before as Record<string, unknown>)[field] ?? null
    if (JSON.stringify(from) !== JSON.stringify(to)) out[field] = { from, to }
  }
  return out
}
