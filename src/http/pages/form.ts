import { readLimited } from '../pipeline/body.ts'

/** The most a dashboard form may send; every field of ours fits many times over. */
const FORM_LIMIT = 32 * 1024

/** Whether the request sends JSON (the public forms, /setup and /join, answer JSON posts in the platform envelope). */
export const sendsJson = (request: Request) =>
  (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json'

/**
 * Reads an application/x-www-form-urlencoded body into its fields (the last value of a
 * repeated name wins), or a JSON object's strings, numbers and booleans as text. Anything else,
 * or a body over the limit, reads as no fields: the form handlers then answer their usual
 * "missing field" page, never a 500.
 */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded' && type !== 'application/json') return {}
  // readLimited holds at most FORM_LIMIT bytes whatever the framing (chunked included).
  const bytes = await readLimited(request, FORM_LIMIT)
  if (!bytes) return {}
  const text = new TextDecoder().decode(bytes)
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text))
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = String(value)
  }
  return fields
}
