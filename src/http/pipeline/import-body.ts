import { t } from 'elysia'
import { IMPORT_SOURCES } from '../../domain/imports.ts'
import { bodyChecker } from './validate.ts'

// The body of an import, shared by the operator route and the CLI route (same bodies and answers).
const sourceError = `source must be one of: ${IMPORT_SOURCES.join(', ')}`
const text = (name: string, max: number) =>
  t.String({ minLength: 1, maxLength: max, error: `${name} must be a text of 1 to ${max} characters` })

/** The body of an import (docs/decisions.md, Moving in from another tool): the operator's and the CLI's. */
export const CreateImport = t.Object({
  source: t.Union(
    IMPORT_SOURCES.map((s) => t.Literal(s)),
    { error: sourceError },
  ),
  api_key: text('api_key', 500),
  base_url: t.Optional(t.String({ minLength: 1, maxLength: 2000, error: 'base_url must be an http(s) URL of at most 2000 characters' })),
  source_program_id: t.Optional(text('source_program_id', 200)),
  account_id: t.Optional(text('account_id', 200)),
  dry_run: t.Optional(t.Boolean({ error: 'dry_run must be a boolean' })),
})
export const checkImport = bodyChecker(CreateImport)
