import { sleep, type Ctx } from './context.ts'
import { CliError, usageError } from './errors.ts'
import { call } from './http.ts'
import { printTable, show } from './output.ts'
import { requireApiKey } from './status.ts'

const SOURCES = ['rewardful', 'tolt', 'firstpromoter', 'partnerstack']
const USAGE =
  'svc import rewardful|tolt|firstpromoter|partnerstack --source-key KEY [--source-url URL] [--source-program-id ID] [--account-id ID] [--dry-run]'

/** How often the progress is read while the import runs. */
const POLL_MS = 500

/**
 * `svc import SOURCE`: moves the program in from another tool (docs/imports.md), with its API key
 * (as `svc status`): starts the import, prints its progress until it ends, then its counts and
 * what it skipped. Exit 1 when it failed, with the source's answer.
 */
export async function importCommand(ctx: Ctx): Promise<void> {
  const token = requireApiKey(ctx)
  const [source, extra] = ctx.args
  if (!source || !SOURCES.includes(source) || extra !== undefined) throw usageError(`Usage: ${USAGE}`)
  const key = ctx.flags['source-key'] as string | undefined
  if (!key) throw usageError(`svc import needs --source-key. Usage: ${USAGE}`)
  const text = (flag: string) => ctx.flags[flag] as string | undefined
  const json = {
    source,
    api_key: key,
    ...(text('source-url') ? { base_url: text('source-url') } : {}),
    ...(text('source-program-id') ? { source_program_id: text('source-program-id') } : {}),
    ...(text('account-id') ? { account_id: text('account-id') } : {}),
    ...(ctx.flags['dry-run'] ? { dry_run: true } : {}),
  }
  const started = await call(ctx, 'POST', '/api/v1/cli/imports', { token, json })
  const id = started.body.data.import_id
  let last = ''
  for (;;) {
    const reply = await call(ctx, 'GET', `/api/v1/cli/imports/${id}`, { token })
    const state = reply.body.data
    if (state.status === 'done' || state.status === 'failed') return report(ctx, reply.body)
    const line =
      state.phase === 'write'
        ? `Writing: ${state.counts.partners} partners, ${state.counts.commissions} commissions so far`
        : `Reading ${source}: ${state.read_rows} rows so far`
    if (line !== last) ctx.err(line)
    last = line
    await sleep(Number(ctx.env.SVC_POLL_INTERVAL_MS) || POLL_MS)
  }
}

function report(ctx: Ctx, body: any): void {
  const state = body.data
  if (state.status === 'failed') throw new CliError(`Import ${state.import_id} failed: ${state.error}`, 1, body)
  show(ctx, body, () => {
    ctx.out(`Import ${state.import_id} from ${state.source} ${state.dry_run ? 'done (dry run: nothing written)' : 'done'}.`)
    printTable(ctx, [['WHAT', state.dry_run ? 'WOULD ADD' : 'ADDED'], ...Object.entries(state.counts).map(([k, v]) => [k, String(v)])])
    if (state.skipped_count > 0) {
      ctx.out(`\nSkipped ${state.skipped_count}:`)
      printTable(ctx, [['KIND', 'SOURCE ID', 'REASON'], ...state.skipped.map((s: any) => [s.kind, s.source_id, s.reason])])
    }
  })
}
