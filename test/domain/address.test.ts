import { expect, test } from 'bun:test'
import { isPrivateAddress } from '../../src/domain/address.ts'

const refused = [
  '127.0.0.1',
  '127.255.0.9',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '::1',
  '::',
  'fe80::1',
  'fd12:3456::1',
  'fc00::9',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:7f00:1',
  '64:ff9b::a00:1',
  'not-an-ip',
]
const allowed = [
  '93.184.216.34',
  '172.15.0.1',
  '172.32.0.1',
  '8.8.8.8',
  '2606:4700:4700::1111',
  '::ffff:93.184.216.34',
  '::ffff:5db8:d822',
  '100.128.0.1',
]

for (const address of refused) test(`${address} is refused`, () => expect(isPrivateAddress(address)).toBe(true))
for (const address of allowed) test(`${address} is a public address`, () => expect(isPrivateAddress(address)).toBe(false))
