import { configPath, readConfig } from "./config.ts"
import type { Flags } from "./args.ts"
import { usageError } from "./errors.ts"
import { keysPath, savedKey } from "./keys.ts"

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

export const DEFAULT_BASE_URL = "http://localhost:3000"

/**
 * Resolves the context; throws a usage error for a base URL that is not http(s). Base URL precedence: --base-url, SVC_BASE_URL, the URL
 * saved by `svc login`, then the local default.
 */
export function createCtx(flags: Flags, args: string[], env: Record<string, string | undefined>): Ctx {
  const path = configPath(env)
  const config = readConfig(path)
  const baseUrl = str(flags["base-url"]) || env.SVC_BASE_URL || config.base_url || DEFAULT_BASE_URL
  // A typo here is the user's to fix (exit 2), not a failed request.
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) throw usageError(`Invalid base URL: ${baseUrl}`)
  return {
    baseUrl,
    apiKey: str(flags["api-key"]) || env.SVC_API_KEY || savedKey(keysPath(path), baseUrl),
    token: config.token,
    json: flags.json === true,
    flags,
    args,
    env,
    configPath: path,
    interactive: process.stdin.isTTY === true,
    progress: process.stderr.isTTY === true,
    out: (line) => process.stdout.write(line + "\n"),
    err: (line) => process.stderr.write(line + "\n"),
  }
}

function str(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined
}

/** Resolves after `ms`; setTimeout keeps the CLI free of runtime-specific sleeps. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
