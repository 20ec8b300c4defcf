/**
 * The network a client address is limited by (docs/decisions.md, Safety, third round): an IPv4
 * address as it is, an IPv6 address by its /64 (one subscriber's; the rest of the address is
 * theirs to change at will). An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, as a dual-stack
 * socket reports an IPv4 client) is its IPv4 address. Split on ':' with '::' expanded, no
 * regular expression; anything that is not an address is kept as it is.
 */
export function networkOf(ip: string): string {
  if (!ip.includes(':')) return ip
  const lower = ip.toLowerCase()
  if (lower.startsWith('::ffff:') && lower.indexOf('.') > 7 && !lower.includes(':', 7)) return lower.slice(7)
  const [head = '', tail] = lower.split('::', 2)
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`
}

/** Whether `ip` is a loopback address (127.0.0.0/8, ::1, or 127.x mapped into IPv6). */
export function isLoopback(ip: string): boolean {
  const v4 = networkOf(ip)
  if (!v4.includes(':')) return v4.startsWith('127.')
  return ip === '::1' || ip === '0:0:0:0:0:0:0:1'
}
