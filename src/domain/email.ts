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
