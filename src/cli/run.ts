import { parse } from './args.ts'
import { createCtx, type Ctx } from './context.ts'
import { CliError, usageError } from './errors.ts'
import { COMMAND_HELP, USAGE, VERSION } from './help.ts'
import { dashboard } from './dashboard.ts'
import { importCommand } from './import.ts'
import { init } from './init.ts'
import { login } from './login.ts'
import { logout } from './logout.ts'
import { programs } from './programs.ts'
import { review } from './review.ts'
import { status } from './status.ts'
import { processorReplay } from './processor-replay.ts'
import { testEvent } from './test-event.ts'
import { verify } from './verify.ts'
import { webhooks } from './webhooks.ts'

const COMMANDS: Record<string, (ctx: Ctx) => Promise<void>> = {
  login,
  logout,
  init,
  programs,
  dashboard,
  status,
  test: testEvent,
  stripe: processorReplay('stripe'),
  paddle: processorReplay('paddle'),
  lemonsqueezy: processorReplay('lemonsqueezy'),
  polar: processorReplay('polar'),
  webhooks,
  review,
  verify,
  import: importCommand,
}

/**
 * Runs one command line and returns the exit code: 0 ok, 1 failed request,
 * 2 usage. Errors are printed here, once; anything that is not a CliError is a
 * bug and is left to crash with its stack.
 */
export async function run(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let json = argv.includes('--json')
  try {
    const { command, args, flags } = parse(argv)
    json = flags.json === true
    if (flags.version) {
      process.stdout.write(VERSION + '\n')
      return 0
    }
    if (flags.help || command === 'help') {
      // `svc init --help` and `svc help init` show that command's help.
      const topic = command === 'help' ? args[0] : command
      process.stdout.write((topic && COMMAND_HELP[topic]) || USAGE)
      return 0
    }
    if (command === undefined) {
      process.stderr.write(USAGE)
      return 2
    }
    const handler = COMMANDS[command]
    if (!handler) throw usageError(`Unknown command: ${command}`)
    await handler(createCtx(flags, args, env))
    return 0
  } catch (e) {
    if (!(e instanceof CliError)) throw e
    // Under --json the server's own answer goes to stdout for scripts to parse.
    if (json && e.body !== undefined) {
      process.stdout.write((typeof e.body === 'string' ? e.body : JSON.stringify(e.body)) + '\n')
    }
    process.stderr.write(`svc: ${e.message}\n`)
    if (e.exitCode === 2) process.stderr.write('Run `svc --help` for usage.\n')
    return e.exitCode
  }
}
