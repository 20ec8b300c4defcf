import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

// Program API keys saved by `svc init --save`, one per server, for `svc status` and `svc test`.
// A file of their own beside config.json (which holds the login): a program key is another
// credential, for another audience, and removing it is `rm keys.json`.

/** What is kept for one server (keyed by its base URL). */
export type SavedKey = { program_id: number; api_key: string }

/** Path of keys.json, in the folder of config.json. */
export const keysPath = (configPath: string) => join(dirname(configPath), 'keys.json')

/** The saved keys; a missing or unreadable file is none, never an error. */
export function readKeys(path: string): Record<string, SavedKey> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'))
    return parsed && typeof parsed === 'object' ? parsed : {}
  } catch {
    return {}
  }
}

/** The key saved for `baseUrl`, or undefined. */
export function savedKey(path: string, baseUrl: string): string | undefined {
  const key = readKeys(path)[normalise(baseUrl)]?.api_key
  return typeof key === 'string' && key ? key : undefined
}

/** Saves the key for `baseUrl`, replacing that server's previous one; the file is 0600 from its first byte. */
export function saveKey(path: string, baseUrl: string, key: SavedKey): void {
  const keys = { ...readKeys(path), [normalise(baseUrl)]: key }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 })
  chmodSync(temp, 0o600)
  renameSync(temp, path)
}

// http://host:3000/ and http://host:3000 are one server. Trailing slashes are cut by hand: no
// backtracking regular expression in src/ (issue 9, test/source-regex.test.ts).
function normalise(baseUrl: string): string {
  let end = baseUrl.length
  while (end > 0 && baseUrl.charCodeAt(end - 1) === 47) end--
  return baseUrl.slice(0, end)
}
