import { describe, expect, test } from 'bun:test'
import { isLoopback, networkOf } from '../../src/domain/network.ts'

// docs/decisions.md, Safety, third round: every per-IP limit counts an IPv6 client by its /64, and
// an IPv4-mapped address (dotted or hex) as the IPv4 client it is.
describe('networkOf', () => {
  const rows: [string, string][] = [
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:7f00:1', '127.0.0.1'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ]
  for (const [ip, network] of rows) test(`${ip} → ${network}`, () => expect(networkOf(ip)).toBe(network))
})

describe('isLoopback', () => {
  const rows: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['10.0.0.1', false],
    ['203.0.113.7', false],
    ['2001:db8::1', false],
    ['unknown', false],
  ]
  for (const [ip, loopback] of rows) test(`${ip}: ${loopback}`, () => expect(isLoopback(ip)).toBe(loopback))
})
