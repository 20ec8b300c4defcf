import { readLimited } from '../pipeline/body.ts'

/** The most a dashboard form may send; every field of ours fits many times over. */
const FORM_LIMIT = 32 * 1024

/**
 * Reads an application/x-www-form-urlencoded body into its fields (the last value of a
 * repeated name wins). Anything else, or a body over the limit, reads as no fields: the form
 * handlers then answer their usual "missing field" page, never a 500.
 */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') return {}
  // readLimited holds at most FORM_LIMIT bytes whatever the framing (chunked included).
  const bytes = await readLimited(request, FORM_LIMIT)
  if (!bytes) return {}
  return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)))
}
