import { parseArgs } from 'node:util'
import { z } from 'zod'
import { usageError } from './errors.ts'

export type Flags = Record<string, string | boolean | undefined>

// Every flag the program knows; parsing with the union lets flags appear before
// or after the command, and the per-command lists below reject the strays.
const OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  save: { type: 'boolean' },
  'no-save': { type: 'boolean' },
  'id-token': { type: 'string' },
  name: { type: 'string' },
  domain: { type: 'string' },
  'commission-type': { type: 'string' },
  'commission-rate': { type: 'string' },
  'partner-signup': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  description: { type: 'string' },
  secret: { type: 'string' },
  'program-id': { type: 'string' },
  connect: { type: 'boolean' },
  timestamp: { type: 'string' },
  previous: { type: 'string' },
  key: { type: 'string' },
  reason: { type: 'string' },
  'source-key': { type: 'string' },
  'source-url': { type: 'string' },
  'source-program-id': { type: 'string' },
  'account-id': { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const

const GLOBAL = ['base-url', 'api-key', 'json', 'help', 'version']

/** Flags each command accepts beyond the global ones. */
export const COMMAND_FLAGS: Record<string, string[]> = {
  login: ['id-token'],
  logout: [],
  init: ['name', 'domain', 'commission-type', 'commission-rate', 'partner-signup', 'save', 'no-save'],
  programs: [],
  status: [],
  test: [],
  stripe: ['secret', 'program-id', 'connect', 'timestamp'],
  paddle: ['secret', 'program-id', 'connect', 'timestamp'],
  lemonsqueezy: ['secret', 'program-id', 'connect', 'timestamp'],
  polar: ['secret', 'program-id', 'connect', 'timestamp'],
  webhooks: ['url', 'events', 'description'],
  verify: ['previous', 'key'],
  review: ['reason'],
  import: ['source-key', 'source-url', 'source-program-id', 'account-id', 'dry-run'],
  help: [],
}

/**
 * The values of flags that take one, as zod schemas. Each command checks its flags where it
 * reads them (so that usage errors keep their order) and words its own usage error.
 */
export const flagValues = {
  /** --base-url (and SVC_BASE_URL, the saved URL): an http(s) URL with a host. */
  baseUrl: z
    .string()
    .regex(/^https?:\/\/[^/]/)
    .refine((value) => URL.canParse(value)),
  /** --program-id: a program's numeric id. */
  programId: z.string().regex(/^\d+$/),
  /** --timestamp: Unix seconds. */
  timestamp: z.string().regex(/^\d+$/).transform(Number),
  /** --commission-rate: a positive number. */
  commissionRate: z.string().trim().min(1).transform(Number).pipe(z.number().positive()),
}

export type Parsed = { command?: string; args: string[]; flags: Flags }

/** Splits argv into command, positionals and flags; throws a usage error (exit 2) on a bad flag. */
export function parse(argv: string[]): Parsed {
  const parsed = (() => {
    try {
      return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true })
    } catch (e) {
      throw usageError((e as Error).message)
    }
  })()
  const [command, ...args] = parsed.positionals
  const flags = parsed.values as Flags
  if (command && COMMAND_FLAGS[command]) {
    const allowed = new Set([...GLOBAL, ...COMMAND_FLAGS[command]])
    const stray = Object.keys(flags).filter((name) => !allowed.has(name))
    if (stray.length > 0) throw usageError(`svc ${command} does not take --${stray[0]}`)
  }
  return { command, args, flags }
}

/**
 * A command's subcommand and its one optional id argument (`svc webhooks test 12`, `svc review
 * approve 7`): a third argument is a usage error; `idOf()` answers the id, or throws the usage
 * error naming `what` when it is missing or not a number.
 */
export function subcommandOf(args: string[], command: string, usage: string, what: string) {
  const [sub, id, extra] = args
  if (extra !== undefined) throw usageError(`Too many arguments. Usage: ${usage}`)
  const idOf = () => {
    if (!id || !/^\d{1,15}$/.test(id)) throw usageError(`svc ${command} ${sub} takes ${what}. Usage: ${usage}`)
    return id
  }
  return { sub, id, idOf }
}
