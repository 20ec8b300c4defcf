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
