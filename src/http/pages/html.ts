/** Markup that is already safe: built by `html` or deliberately trusted (the stylesheet, SVG we draw). */
export class Safe {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c])
}

type Value = Safe | string | number | boolean | null | undefined | Value[]

function render(value: Value): string {
  if (value === null || value === undefined || value === false || value === true) return ''
  if (value instanceof Safe) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

/**
 * The template tag of every page: each interpolated value is escaped unless it is Safe (made
 * by `html` itself); arrays are joined; null, undefined and booleans render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Safe {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Safe(out)
}
