import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readConfig } from '../../src/cli/config.ts'

describe('the config file is read through its schema', () => {
  test('a field of another type reads as absent; other keys are kept; a file that is no object is empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cli-config-'))
    const path = join(dir, 'config.json')
    try {
      writeFileSync(path, JSON.stringify({ base_url: 42, token: 'svc_login_x', other: true }))
      expect(readConfig(path)).toEqual({ token: 'svc_login_x', other: true } as never)
      writeFileSync(path, '[1, 2]')
      expect(readConfig(path)).toEqual({})
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
