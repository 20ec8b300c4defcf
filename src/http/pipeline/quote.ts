/** The most characters of a client's value that a message repeats. */
const QUOTE_LIMIT = 64

/**
 * How a value the client sent is repeated in a message: a string as it is, a number or boolean
 * as JavaScript prints it, an array or object as JSON, all cut at QUOTE_LIMIT characters (with
 * `…`). The rendering stops as soon as the limit is reached, so a value nested 30,000 deep costs
 * no more than a short one (docs/decisions.md, Hostile input: no unbounded value is serialised).
 */
export function quoteValue(value: unknown): string {
  if (typeof value === 'string') return value.length > QUOTE_LIMIT ? `${value.slice(0, QUOTE_LIMIT)}…` : value
  if (typeof value !== 'object' || value === null) return String(value)
  const out = { text: '' }
  render(value, out)
  return out.text.length > QUOTE_LIMIT ? `${out.text.slice(0, QUOTE_LIMIT)}…` : out.text
}

function render(value: unknown, out: { text: string }): void {
  if (out.text.length > QUOTE_LIMIT) return
  if (typeof value !== 'object' || value === null) {
    out.text += JSON.stringify(value) ?? 'null'
    return
  }
  const list = Array.isArray(value)
  out.text += list ? '[' : '{'
  let first = true
  for (const key in value) {
    if (out.text.length > QUOTE_LIMIT) return
    if (!first) out.text += ','
    first = false
    if (!list) out.text += `${JSON.stringify(key.length > QUOTE_LIMIT ? key.slice(0, QUOTE_LIMIT) : key)}:`
    render((value as Record<string, unknown>)[key], out)
  }
  out.text += list ? ']' : '}'
}
