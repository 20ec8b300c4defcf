import { expect, test } from 'bun:test'
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open.ts'
import { bunRuntime } from '../../src/runtime/bun.ts'

const mode = (path: string) => statSync(path).mode & 0o777

// docs/decisions.md, Hostile input: the file holds SVC_SECRET's generated value and the webhook secrets.
test('the database folder is created 0700 and the database, -wal and -shm files 0600', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-modes-'))
  try {
    chmodSync(root, 0o755)
    const folder = join(root, 'data', 'svc')
    const path = join(folder, 'svc.db')
    const database = openDatabase(bunRuntime, path)
    database.client.exec("INSERT INTO settings (key, value) VALUES ('probe', 'x')")
    expect({ folder: mode(folder), parent: mode(join(root, 'data')) }).toEqual({ folder: 0o700, parent: 0o700 })
    expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600])
    database.close()
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

test('an existing world-readable database file is narrowed to 0600, and its folder left as it was', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-modes-'))
  try {
    chmodSync(root, 0o755)
    const path = join(root, 'svc.db')
    writeFileSync(path, '', { mode: 0o644 })
    chmodSync(path, 0o644)
    const database = openDatabase(bunRuntime, path)
    database.client.exec("INSERT INTO settings (key, value) VALUES ('probe', 'x')")
    expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600])
    expect(mode(root)).toBe(0o755)
    database.close()
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
