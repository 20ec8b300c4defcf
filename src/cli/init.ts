import { createInterface, type Interface } from 'node:readline/promises'
import { COMMISSION_TYPES } from '../domain/commission.ts'
import { cli as messages } from '../domain/messages.ts'
import { flagValues } from './args.ts'
import type { Ctx } from './context.ts'
import { CliError, usageError } from './errors.ts'
import { call } from './http.ts'
import { keysPath, saveKey } from './keys.ts'
import { show } from './output.ts'

// Program fields of docs/api.md (Records); checked here too so a typo is a usage
// error (exit 2) before any request, and a prompt can simply ask again. The
// text is the server's own (one source of truth in http/messages.ts, a module
// of plain strings, and domain/commission.ts, pure, so the binary pulls in
// nothing else of the server).

type Field = { flag: string; question: string; check(value: string): string | null }

const FIELDS: Field[] = [
  { flag: 'name', question: 'Program name', check: (v) => (v ? null : 'name must not be empty') },
  {
    flag: 'domain',
    question: 'Your site (a domain such as example.com, or http://localhost:3901 while you test)',
    check: (v) => (v ? null : 'domain must not be empty'),
  },
  {
    flag: 'commission-type',
    question: `Commission type (${COMMISSION_TYPES.join(', ')})`,
    check: (v) => ((COMMISSION_TYPES as readonly string[]).includes(v) ? null : messages.initCommissionType(v)),
  },
  {
    flag: 'commission-rate',
    question: 'Commission rate (percent, or major currency units for fixed types)',
    check: (v) => (flagValues.commissionRate.safeParse(v).success ? null : messages.initCommissionRate),
  },
]

/**
 * `svc init`: creates a program with the login token and prints its id and API
 * key. Missing flags are asked for on a terminal; without one they are a usage error.
 * The key is kept for `svc status` and `svc test` with --save, or when the user says
 * so on a terminal; without a terminal and without --save nothing is written.
 */
export async function init(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 0) throw usageError(`svc init takes no arguments (got ${ctx.args[0]}); use --name, --domain…`)
  if (!ctx.token) throw usageError('Not logged in. Run `svc login` first.')
  if (ctx.flags.save && ctx.flags['no-save']) throw usageError('svc init takes --save or --no-save, not both')
  const signup = ctx.flags['partner-signup'] as string | undefined
  if (signup !== undefined && !['off', 'approval', 'open'].includes(signup))
    throw usageError(`--partner-signup must be off, approval or open (got ${signup})`)
  const prompt = new Prompt()
  try {
    const values = await collect(ctx, prompt)
    const reply = await call(ctx, 'POST', '/api/v1/cli/init', {
      token: ctx.token,
      json: {
        name: values.name,
        domain: values.domain,
        commission_type: values['commission-type'],
        commission_rate: Number(values['commission-rate']),
        ...(signup === undefined ? {} : { partner_signup: signup }),
      },
    })
    const data = reply.body?.data
    if (data?.program_id === undefined || typeof data?.api_key !== 'string') {
      throw new CliError('The server answered init without data.program_id and data.api_key', 1, reply.body)
    }
    show(ctx, reply.body, () => {
      ctx.out(`Created program ${data.program_id}.`)
      ctx.out(`API key: ${data.api_key}`)
    })
    if (await wantsSave(ctx, prompt)) {
      const path = keysPath(ctx.configPath)
      saveKey(path, ctx.baseUrl, { program_id: data.program_id, api_key: data.api_key })
      ctx.err(`API key saved to ${path}: svc status and svc test use it against ${ctx.baseUrl}.`)
    }
    // The key is never shown again in full (docs/api.md, Records: shown masked after issue).
    ctx.err('Warning: store this API key now (a secret manager, or SVC_API_KEY); it will not be shown again.')
  } finally {
    prompt.close()
  }
}

/** --save, --no-save, else the answer on a terminal (Enter is yes), else no. */
async function wantsSave(ctx: Ctx, prompt: Prompt): Promise<boolean> {
  if (ctx.flags.save) return true
  if (ctx.flags['no-save'] || !ctx.interactive) return false
  for (;;) {
    const answer = (await prompt.ask(`Save this API key for svc status and svc test on ${ctx.baseUrl}? [Y/n]: `))?.toLowerCase()
    if (answer === undefined || answer === 'n' || answer === 'no') return false
    if (answer === '' || answer === 'y' || answer === 'yes') return true
    ctx.err('Answer y or n.')
  }
}

async function collect(ctx: Ctx, prompt: Prompt): Promise<Record<string, string>> {
  const values: Record<string, string> = {}
  const missing: Field[] = []
  for (const field of FIELDS) {
    const given = ctx.flags[field.flag]
    if (typeof given !== 'string') {
      missing.push(field)
      continue
    }
    const problem = field.check(given.trim())
    if (problem) throw usageError(problem)
    values[field.flag] = given.trim()
  }
  if (missing.length === 0) return values
  if (!ctx.interactive) {
    throw usageError(`Missing ${missing.map((f) => `--${f.flag}`).join(', ')} (stdin is not a terminal, so svc cannot ask)`)
  }
  for (const field of missing) values[field.flag] = await askField(ctx, prompt, field)
  return values
}

async function askField(ctx: Ctx, prompt: Prompt, field: Field): Promise<string> {
  for (;;) {
    const answer = await prompt.ask(`${field.question}: `)
    // End of input (Ctrl-D) before an answer.
    if (answer === undefined) throw usageError('Cancelled.')
    const problem = field.check(answer)
    if (!problem) return answer
    ctx.err(problem)
  }
}

/**
 * Questions on stderr (stdout keeps only the result), answers from stdin, opened on the first
 * question. Lines are read through the iterator, which buffers: pasted or piped answers arrive
 * all at once and rl.question() would drop those that come before it asks.
 */
class Prompt {
  #rl: Interface | null = null
  #lines: AsyncIterator<string> | null = null

  /** The trimmed answer, or undefined at end of input. */
  async ask(question: string): Promise<string | undefined> {
    if (!this.#rl) {
      this.#rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false })
      this.#lines = this.#rl[Symbol.asyncIterator]()
    }
    process.stderr.write(question)
    const next = await this.#lines!.next()
    return next.done ? undefined : next.value.trim()
  }

  close(): void {
    this.#rl?.close()
  }
}
