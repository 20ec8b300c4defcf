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
  // docs/decisions.md, Webhook delivery (turn 4): IPv6 forms that embed a private IPv4 address.
  '::127.0.0.1',
  '::7f00:1',
  '::10.0.0.1',
  '::ffff:0:127.0.0.1',
  '::ffff:0:a00:1',
  '2002:7f00:1::1',
  '2002:a00:1::',
  '2002:c0a8:101::5',
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo: client 127.0.0.1 (bits inverted)
  '2001:0:a00:1:8000:63bf:f7f7:f7f7', // Teredo: server 10.0.0.1
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
  '::8.8.8.8',
  '2002:5db8:d822::1',
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo: server 65.54.227.120, client 8.8.8.8
]

for (const address of refused) test(`${address} is refused`, () => expect(isPrivateAddress(address)).toBe(true))
for (const address of allowed) test(`${address} is a public address`, () => expect(isPrivateAddress(address)).toBe(false))
