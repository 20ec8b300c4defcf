/**
 * A program's site from what the owner typed as its `domain` (docs/decisions.md, The first hour):
 * `domain` the host alone, lower case; `siteUrl` scheme, host and port (`http://localhost:3901`
 * stays so; `shop.example` is `https://shop.example`). Partner links are made on `siteUrl`, and its
 * origin is a browser origin of the program. Null when the text names no host (or another scheme).
 */
export function siteOf(input: string): { domain: string; siteUrl: string } | null {
  const text = input.trim().toLowerCase()
  if (!text || text.length > 300) return null
  let url: URL
  try {
    url = new URL(text.includes('://') ? text : `https://${text}`)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  const host = url.hostname
  const named =
    host === 'localhost' ||
    (host.includes('.') && [...host].every((c) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '.' || c === '-'))
  return named ? { domain: host, siteUrl: url.origin } : null
}

/** The site a program's links are made on: its site_url, or https://<domain> for a program made before site_url. */
export function siteUrlOf(program: { domain: string; siteUrl: string | null }): string {
  return program.siteUrl ?? `https://${program.domain}`
}

/** A partner's referral link: the site with `?aff=<short link>`. */
export function referralUrlOf(program: { domain: string; siteUrl: string | null }, shortLink: string): string {
  return `${siteUrlOf(program)}/?aff=${encodeURIComponent(shortLink)}`
}

/**
 * Whether a program accepts a browser origin (docs/decisions.md, Browser origins; The first hour):
 * https://<domain> and its https subdomains on the default port, its site's own origin
 * (site_url, scheme and port as given), and the exact origins in allowed_origins.
 */
export function originAccepted(program: { domain: string; siteUrl: string | null; allowedOrigins: string[] }, origin: string): boolean {
  if (program.allowedOrigins.includes(origin) || origin === program.siteUrl) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.port !== '') return false
  const domain = program.domain.toLowerCase()
  return url.hostname === domain || url.hostname.endsWith(`.${domain}`)
}
