import { isIP } from 'node:net'

/**
 * Whether an IP address is one a webhook must not reach (docs/decisions.md, Outbound webhooks):
 * loopback, private, link-local, unique-local, and the unspecified, shared (CGNAT), multicast and
 * reserved ranges a server has no business posting to. IPv4-mapped IPv6 is judged as its IPv4.
 * Anything that is not an IP address at all is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address)
  if (version === 4) return privateV4(address.split('.').map(Number))
  if (version !== 6) return true
  const lower = address.toLowerCase()
  const mapped = lower.startsWith('::ffff:') ? lower.slice(7) : null
  if (mapped && isIP(mapped) === 4) return privateV4(mapped.split('.').map(Number))
  const groups = expandV6(lower)
  // ::ffff:7f00:1, the hex form of an IPv4-mapped address (how URL writes [::ffff:127.0.0.1]).
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return privateV4([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff])
  if (groups.every((g) => g === 0)) return true // ::
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true // ::1
  const first = groups[0]!
  return (
    (first & 0xfe00) === 0xfc00 || // fc00::/7 unique-local
    (first & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (first & 0xff00) === 0xff00 || // ff00::/8 multicast
    (groups[0] === 0x64 && groups[1] === 0xff9b) || // 64:ff9b::/96 NAT64 of any IPv4
    (first === 0x2001 && groups[1] === 0xdb8) // documentation
  )
}

function privateV4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  )
}

/** The eight 16-bit groups of an IPv6 address (no zone), `::` expanded. */
function expandV6(address: string): number[] {
  const [head = '', tail] = address.split('%')[0]!.split('::') as [string, string | undefined]
  const part = (text: string) => (text === '' ? [] : text.split(':').map((g) => Number.parseInt(g, 16) || 0))
  const left = part(head)
  const right = tail === undefined ? [] : part(tail)
  return [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill(0), ...right]
}
