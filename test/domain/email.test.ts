import { describe, expect, test } from 'bun:test'
import { isEmail } from '../../src/domain/email.ts'

const long = (n: number) => 'a'.repeat(n)

describe('isEmail', () => {
  const rows: [string, boolean][] = [
    ['ada@shop.test', true],
    ['a@b.c', true],
    ['ada+tag@mail.shop.test', true],
    [`${long(64)}@shop.test`, true],
    [`${long(65)}@shop.test`, false],
    [`a@${long(247)}.test`, true], // 254 characters
    [`a@${long(248)}.test`, false], // 255
    ['a@', false],
    ['ab', false],
    ['@shop.test', false],
    ['ada.shop.test', false],
    ['ada@@shop.test', false],
    ['ada@shop@test.example', false],
    ['ada@b.', false],
    ['ada@.bc', false],
    ['ada@bc.', false],
    ['ada@b..c', false],
    ['ada@bc', false],
    ['ada@b.c.', false],
    ['ada lovelace@shop.test', false],
    ['ada@shop.test\r\nBcc: x@y.z', false],
    ['ada\t@shop.test', false],
    ['ada\x7f@shop.test', false],
    ['ada\x00@shop.test', false],
    ...[...'<>()[],;:"\\'].map((c): [string, boolean] => [`ad${c}a@shop.test`, false]),
    ['adé@shop.test', true],
    ['~!#$%&*@shop.test', true],
  ]
  for (const [text, expected] of rows)
    test(`${JSON.stringify(text.length > 40 ? `${text.slice(0, 20)}…(${text.length})` : text)} → ${expected}`, () =>
      expect(isEmail(text)).toBe(expected))
})
