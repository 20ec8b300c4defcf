import type { Program } from '../../db/schema.ts'
import { HttpError } from '../pipeline/envelope.ts'
import { shared } from '../../domain/messages.ts'
import { originAllowedOnce } from '../pipeline/origin.ts'

export interface AdditionalData {
  test_mode?: boolean
  program_id?: number | string
}

/** additional_data.program_id as a number, or null when absent. */
export function programIdOf(extra: AdditionalData | undefined): number | null {
  return extra?.program_id === undefined ? null : Number(extra.program_id)
}

/** A string identifier, or null when absent or blank; integers (customer_key) become strings. */
export function identifier(value: string | number | undefined): string | null {
  if (value === undefined) return null
  const text = String(value).trim()
  return text === '' ? null : text
}

/**
 * Browser-mode calls carrying an Origin must come from the program's site (docs/decisions.md,
 * Browser origins): 403 otherwise, before anything is recorded. No Origin: server to server.
 */
export function guardOrigin(program: Pick<Program, 'domain' | 'siteUrl' | 'allowedOrigins'>, request: Request): void {
  const origin = request.headers.get('origin')
  if (origin !== null && !originAllowedOnce(program, origin)) throw new HttpError(403, shared.originNotAllowed)
}

/**
 * docs/api.md, Authentication: a test-mode click or lead sending both a Bearer key and an
 * additional_data.program_id of another program gets 403. `keyProgram` is the program of the
 * request's recognised key, or null without one (browser mode: not checked).
 */
export function guardTestProgram(extra: AdditionalData | undefined, keyProgram: Program | null): void {
  const programId = programIdOf(extra)
  if (extra?.test_mode !== true || programId === null || keyProgram === null) return
  if (keyProgram.id !== programId) throw new HttpError(403, shared.programMismatch)
}
