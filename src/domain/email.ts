/**
 * Whether `text` is an email address as svc stores and mails them: at most 254 characters, one
 * `@` with a local part (at most 64) before it and a dotted domain after it, and none of the
 * characters that would let an address break out of an SMTP envelope or a mail header (space,
 * control characters, `<>()[],;:"\`). Checked by hand: no expression runs over text from outside.
 */
export function isEmail(text: string): boolean {
  if (text.length < 3 || text.length > 254) return false
  const at = text.indexOf('@')
  if (at < 1 || at > 64 || at !== text.lastIndexOf('@')) return false
  const domain = text.slice(at + 1)
  if (domain.length < 3 || !domain.includes('.') || domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) return false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 32 || code === 127 || '<>()[],;:"\\'.includes(text[i] as string)) return false
  }
  return true
}

/**
 * The key an address is compared by (docs/decisions.md, Safety, third round): trimmed, Unicode
 * NFKC, then `toLowerCase()`; never SQLite's ASCII-only `lower()`, so `JÜRGEN@x` is `jürgen@x`.
 */
export function emailKey(email: string): string {
  return email.trim().normalize('NFKC').toLowerCase()
}

/**
 * The key of "the same applicant" and of the per-address email caps: the email key with a `+tag`
 * of the local part dropped (`ada+1@x.example` is `ada@x.example`).
 */
export function applicantKey(email: string): string {
  const key = emailKey(email)
  const at = key.lastIndexOf('@')
  const plus = key.indexOf('+')
  return plus > 0 && plus < at ? key.slice(0, plus) + key.slice(at) : key
}

/**
 * The first control character of `text` (U+0000–U+001F, U+007F) as its index, or -1; with
 * `lines`, line feed, carriage return and tab are allowed (a multi-line text field).
 */
export function controlCharAt(text: string, lines = false): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if ((code < 32 || code === 127) && !(lines && (code === 10 || code === 13 || code === 9))) return i
  }
  return -1
}
