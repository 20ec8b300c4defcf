import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { z } from 'zod'

/** What `svc login` remembers between runs; a field of another type reads as absent. */
const ConfigFile = z.looseObject({
  base_url: z.string().optional().catch(undefined),
  token: z.string().optional().catch(undefined),
})

export type Config = z.infer<typeof ConfigFile>

/** Path of config.json: $XDG_CONFIG_HOME/svc, else ~/.config/svc (XDG base directory spec). */
export function configPath(env: Record<string, string | undefined>): string {
  const root = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config')
  return join(root, 'svc', 'config.json')
}

/** Reads the config; a missing or unreadable file is an empty config, never an error. */
export function readConfig(path: string): Config {
  try {
    const parsed = ConfigFile.safeParse(JSON.parse(readFileSync(path, 'utf8')))
    return parsed.success ? parsed.data : {}
  } catch {
    return {}
  }
}

/**
 * Writes the config with mode 0600 (it holds the login token). Writing a fresh
 * temp file and renaming it means the token is never readable by others, even
 * for a moment, and an older file with looser mode is replaced, not reused.
 */
export function writeConfig(path: string, config: Config): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 })
  // The process umask can only narrow the mode, but be explicit in case the
  // temp name already existed with another mode.
  chmodSync(temp, 0o600)
  renameSync(temp, path)
}

/** Removes the file entirely when nothing is left worth keeping. */
export function clearToken(path: string): boolean {
  const config = readConfig(path)
  if (!config.token) return false
  delete config.token
  if (Object.keys(config).length === 0) rmSync(path, { force: true })
  else writeConfig(path, config)
  return true
}
