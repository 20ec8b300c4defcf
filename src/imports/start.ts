// Starting an import and answering its state: what the operator route, the CLI route and the
// Settings → Import page share (docs/decisions.md, Moving in from another tool).
import type { Import } from '../db/schema.ts'
import { iso } from '../domain/time.ts'
import { CANCELED, type ImportSource } from '../domain/imports.ts'
import { checkedUrl } from '../tracking/webhook-endpoints.ts'
import type { TrackingDeps } from '../tracking/deps.ts'
import type { Actor } from '../domain/audit.ts'
import { sealSourceKey } from './key.ts'

export interface ImportRequest {
  source: ImportSource
  api_key: string
  base_url?: string
  source_program_id?: string
  account_id?: string
  dry_run?: boolean
}

/** How many skipped rows an answer lists (the count is whole: `skipped_count`). */
const SKIPPED_SHOWN = 1000

/**
 * Queues an import of the program and wakes the job; answers the import, or the reason base_url
 * is refused (the webhooks' private-address rule, lifted by ALLOW_PRIVATE_URLS).
 */
export async function queueImport(
  deps: TrackingDeps & { importRunner?: { wake(): void } },
  by: Actor,
  allowPrivate: boolean,
  programId: number,
  input: ImportRequest,
): Promise<{ job: Import } | { refused: string }> {
  let baseUrl: string | undefined
  if (input.base_url !== undefined) {
    const checked = await checkedUrl(input.base_url, allowPrivate)
    if ('refused' in checked) return { refused: checked.refused.replace(/^url\b/, 'base_url') }
    baseUrl = checked.url
  }
  const job = await deps.database.writer.run(() => {
    const now = deps.clock.now()
    const made = deps.database.stores.imports.create({
      programId,
      source: input.source,
      // Sealed with the server's secret: the plain key is never written to the file (imports/key.ts).
      apiKey: sealSourceKey(deps.secret, input.api_key),
      dryRun: input.dry_run === true,
      options: { baseUrl, sourceProgramId: input.source_program_id, accountId: input.account_id },
      now,
    })
    // Never the source key: what was asked, from where.
    const details = { source: input.source, dry_run: input.dry_run === true, base_url: baseUrl ?? null }
    deps.database.stores.audit.write(by, now, { program: programId, action: 'import.start', object: ['import', made.id], details })
    return made
  })
  deps.importRunner?.wake()
  return { job }
}

/**
 * Cancels a queued or running import (docs/imports.md): it ends `failed` with the error "canceled",
 * its key and staged rows deleted, and `import.cancel` is written to the audit log in the same
 * unit; the job stops its requests and goes on to the next import. False when it had ended already.
 */
export async function cancelImport(
  deps: TrackingDeps & { importRunner?: { cancel(importId: number, write: (now: number) => void): Promise<boolean> } },
  by: Actor,
  job: Import,
): Promise<boolean> {
  const write = (now: number) =>
    deps.database.stores.audit.write(by, now, { program: job.programId, action: 'import.cancel', object: ['import', job.id] })
  if (deps.importRunner) return deps.importRunner.cancel(job.id, write)
  return endCanceled(deps, job.id, write)
}

/**
 * Ends an import `failed` with the error "canceled" and writes its audit entry (`write`), in one
 * writer unit; false when it had ended already. The runner's cancel does this, then stops the
 * import's requests if it is the one running.
 */
export function endCanceled(
  deps: Pick<TrackingDeps, 'database' | 'clock'>,
  importId: number,
  write: (now: number) => void,
): Promise<boolean> {
  return deps.database.writer.run(() => {
    const now = deps.clock.now()
    if (!deps.database.stores.imports.cancel(importId, CANCELED, now)) return false
    write(now)
    return true
  })
}

/** An import as GET …/imports/:id answers it (never its source key). */
export function presentImport(deps: TrackingDeps, job: Import) {
  const { imports } = deps.database.stores
  return {
    import_id: job.id,
    program_id: job.programId,
    source: job.source,
    status: job.status,
    dry_run: job.dryRun,
    phase: job.status === 'running' || job.status === 'queued' ? job.phase : null,
    read_rows: job.readRows,
    counts: job.counts,
    skipped: imports.skipped(job.id, SKIPPED_SHOWN).map((s) => ({ kind: s.kind, source_id: s.sourceId, reason: s.reason })),
    skipped_count: imports.skippedCount(job.id),
    error: job.error,
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
    created_at: iso(job.createdAt),
  }
}
