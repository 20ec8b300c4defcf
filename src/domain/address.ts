import { isIP } from 'node:net'

/**
 * Whether an IP address is one a webhook must not reach (docs/decisions.md, Outbound webhooks):
 * loopback, private, link-local, unique-local, and the unspecified, shared (CGNAT), multicast and
 * reserved ranges a server has no business posting to. An IPv6 address that embeds an IPv4 one
 * (mapped, IPv4-compatible, IPv4-translated, 6to4, Teredo) is judged by what it embeds
 * (docs/decisions.md, Webhook delivery); NAT64 is refused whatever it embeds. Anything that is
 * not an IP address at all is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address)
  if (version === 4) return privateV4(address.split('.').map(Number))
  if (version !== 6) return true
  const groups = expandV6(address.toLowerCase())
  if (groups.every((g) => g === 0)) return true // ::
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true // ::1
  const v4 = (high: number, low: number) => privateV4([high >> 8, high & 0xff, low >> 8, low & 0xff])
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0)
  const [first, second, , , , , seventh, eighth] = groups as [number, number, number, number, number, number, number, number]
  // ::a.b.c.d (IPv4-compatible), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated).
  if (zeros(0, 5) && (groups[5] === 0 || groups[5] === 0xffff)) return v4(seventh, eighth)
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return v4(seventh, eighth)
  if (first === 0x2002 && v4(second, groups[2]!)) return true // 6to4: 2002:aabb:ccdd::/48
  // Teredo 2001:0::/32: the server's address, then the client's with its bits inverted.
  if (first === 0x2001 && second === 0 && (v4(groups[2]!, groups[3]!) || v4(seventh ^ 0xffff, eighth ^ 0xffff))) return true
  return (
    (first & 0xfe00) === 0xfc00 || // fc00::/7 unique-local
    (first & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (first & 0xff00) === 0xff00 || // ff00::/8 multicast
    (first === 0x64 && second === 0xff9b) || // 64:ff9b::/96 NAT64 of any IPv4
    (first === 0x2001 && second === 0xdb8) // documentation
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

/** The eight 16-bit groups of an IPv6 address (no zone), `::` expanded, a dotted IPv4 tail as two groups. */
function expandV6(address: string): number[] {
  let text = address.split('%')[0]!
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) becomes its two groups (isIP has checked its shape).
  const v4 = text.slice(text.lastIndexOf(':') + 1)
  if (v4.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number)
    text = `${text.slice(0, text.length - v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined]
  const part = (piece: string) => (piece === '' ? [] : piece.split(':').map((g) => Number.parseInt(g, 16) || 0))
  const left = part(head)
  const right = tail === undefined ? [] : part(tail)
  return [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill(0), ...right]
}
