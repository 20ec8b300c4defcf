/**
 * The network a client address is limited by (docs/decisions.md, Safety, third round): an IPv4
 * address as it is, an IPv6 address by its /64 (one subscriber's; the rest of the address is
 * theirs to change at will). An IPv4-mapped IPv6 address (`::ffff:a.b.c.d` as a dual-stack
 * socket reports an IPv4 client, or its hex form `::ffff:7f00:1`) is its IPv4 address. Split on ':' with '::' expanded, no
 * regular expression; anything that is not an address is kept as it is.
 */
export function networkOf(ip: string): string {
  if (!ip.includes(':')) return ip
  const lower = ip.toLowerCase()
  const [head = '', tail] = lower.split('::', 2)
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  // A dotted IPv4 tail (::ffff:1.2.3.4, ::1.2.3.4) is two groups.
  const last = right.length ? right : left
  const dotted = last.length ? last[last.length - 1]! : ''
  if (dotted.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number)
    last.splice(last.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16))
  }
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  const numbers = groups.map((g) => Number.parseInt(g, 16) || 0)
  // IPv4-mapped (::ffff:a.b.c.d, also in hex: ::ffff:7f00:1) is the IPv4 client itself.
  if (numbers.length === 8 && numbers.slice(0, 5).every((g) => g === 0) && numbers[5] === 0xffff) {
    const [hi = 0, lo = 0] = numbers.slice(6)
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`
  }
  return `${numbers
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

/** Whether `ip` is a loopback address (127.0.0.0/8, ::1, or 127.x mapped into IPv6). */
export function isLoopback(ip: string): boolean {
  const v4 = networkOf(ip)
  if (!v4.includes(':')) return v4.startsWith('127.')
  const lower = ip.toLowerCase()
  return lower === '::1' || lower === '0:0:0:0:0:0:0:1' || lower === '0000:0000:0000:0000:0000:0000:0000:0001'
}
