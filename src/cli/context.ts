import { configPath, readConfig } from './config.ts'
import { flagValues, type Flags } from './args.ts'
import { usageError } from './errors.ts'
import { keysPath, savedKey } from './keys.ts'

/** Everything a command needs from the outside world, resolved once per run. */
export type Ctx = {
  baseUrl: string
  /** Program API key from --api-key, SVC_API_KEY, or the one `svc init --save` kept for this server. */
  apiKey?: string
  /** Login token saved by `svc login`. */
  token?: string
  json: boolean
  flags: Flags
  /** Positionals after the command name. */
  args: string[]
  env: Record<string, string | undefined>
  configPath: string
  interactive: boolean
  progress: boolean
  out(line: string): void
  err(line: string): void
}

export const DEFAULT_BASE_URL = 'http://localhost:3000'

/**
 * Resolves the context; throws a usage error for a base URL that is not http(s). Base URL precedence: --base-url, SVC_BASE_URL, the URL
 * saved by `svc login`, then the local default.
 */
export function createCtx(flags: Flags, args: string[], env: Record<string, string | undefined>): Ctx {
  const path = configPath(env)
  const config = readConfig(path)
  const baseUrl = str(flags['base-url']) || env.SVC_BASE_URL || config.base_url || DEFAULT_BASE_URL
  // A typo here is the user's to fix (exit 2), not a failed request.
  if (!flagValues.baseUrl.safeParse(baseUrl).success) throw usageError(`Invalid base URL: ${baseUrl}`)
  return {
    baseUrl,
    apiKey: str(flags['api-key']) || env.SVC_API_KEY || savedKey(keysPath(path), baseUrl),
    // The token goes only to the server that issued it (issue 9): `svc login` saved it with that
    // base URL, and another --base-url or SVC_BASE_URL runs as if logged out.
    token: config.token && config.base_url !== undefined && sameServer(config.base_url, baseUrl) ? config.token : undefined,
    json: flags.json === true,
    flags,
    args,
    env,
    configPath: path,
    interactive: process.stdin.isTTY === true,
    progress: process.stderr.isTTY === true,
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
  }
}

/** Without its trailing slashes (no regular expression: a base URL may come from anywhere). */
export function trimSlashes(url: string): string {
  let end = url.length
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--
  return url.slice(0, end)
}

/** Whether two base URLs name the same server and path (scheme and host case, default port and trailing slash aside). */
export function sameServer(a: string, b: string): boolean {
  if (!URL.canParse(a) || !URL.canParse(b)) return false
  return trimSlashes(new URL(a).href) === trimSlashes(new URL(b).href)
}

function str(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** Resolves after `ms`; setTimeout keeps the CLI free of runtime-specific sleeps. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
