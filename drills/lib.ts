/**
 * What the drills share: the service started as an operator starts it (the real entrypoint, or
 * the server alone) in a process group of its own so that a drill can kill -9 all of it, the
 * operator-API set-up, bounded parallel load, and the counts and sums read from a database file.
 */
import { Database } from 'bun:sqlite'
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = join(import.meta.dir, '..')
export const LITESTREAM = join(ROOT, 'node_modules/@flydotio/litestream-linux-x64/litestream')
export const ENTRYPOINT = join(ROOT, 'deploy/entrypoint.sh')
export const ADMIN_TOKEN = 'drill-admin-token-0123456789'
/** The server as the entrypoint runs it in development: Bun over src/main.ts. */
export const SERVER_CMD = `${process.execPath} ${join(ROOT, 'src/main.ts')}`

export interface Service {
  url: string
  /** The process group leader: Litestream under the entrypoint, else the server. */
  pid: number
  /** Exit code, or null when killed by a signal. */
  exited: Promise<number | null>
  log(): string
  /**
   * SIGTERM to the leader (Litestream forwards it to the server); its exit code. A service still
   * running 20 s later is killed and the call throws with the tail of its log, so a hang names itself.
   */
  term(): Promise<number | null>
  /** SIGKILL to the whole group at once: the machine is gone. */
  kill9(): Promise<void>
}

/** Starts `cmd` (default: the entrypoint) with `env`, logging to `logPath` (a new file per start); resolves once it listens. */
export async function startService(env: Record<string, string>, logPath: string, cmd: string[] = ['sh', ENTRYPOINT]): Promise<Service> {
  const fd = openSync(logPath, 'a')
  const child: ChildProcess = spawn(cmd[0], cmd.slice(1), {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_LOG_REQUESTS: 'false', ...env },
  })
  closeSync(fd)
  let code: number | null | undefined
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve((code = c))))
  const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '')
  const pid = child.pid!
  const service: Service = {
    url: '',
    pid,
    exited,
    log,
    async term() {
      process.kill(pid, 'SIGTERM')
      const timedOut = Symbol('timed out')
      const result = await Promise.race([exited, Bun.sleep(20_000).then(() => timedOut)])
      if (result !== timedOut) return result as number | null
      const tree = Bun.spawnSync(['ps', '-o', 'pid,ppid,stat,wchan:20,etime,args', '-g', String(pid)]).stdout.toString()
      await service.kill9()
      throw new Error(`${cmd.join(' ')} still running 20 s after SIGTERM:\n${tree}\n${log().slice(-3000)}`)
    },
    async kill9() {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {
        /* already gone */
      }
      await exited
    },
  }
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && code === undefined; await Bun.sleep(20)) {
    const match = log().match(/"svc listening","url":"(http:\/\/[^"]+)"/)
    if (match) {
      service.url = match[1]
      return service
    }
  }
  await service.kill9()
  throw new Error(`${cmd.join(' ')} did not start:\n${log().slice(-3000)}`)
}

/** JSON over HTTP: admin calls with the admin token, tracking calls with a program key. */
export function client(url: string) {
  const send = async (method: string, path: string, body: unknown, token: string) => {
    const response = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    })
    const text = await response.text()
    let json: any = null
    try {
      json = JSON.parse(text)
    } catch {
      /* kept as null */
    }
    return { status: response.status, json }
  }
  const admin = async (method: string, path: string, body?: unknown) => {
    const reply = await send(method, `/api/v1/admin${path}`, body, ADMIN_TOKEN)
    if (reply.status >= 300) throw new Error(`${method} /api/v1/admin${path}: ${reply.status} ${JSON.stringify(reply.json)}`)
    return reply.json.data
  }
  return { send, admin }
}

export interface Program {
  programId: number
  apiKey: string
  shortLink: string
  customerKeys: string[]
}

/**
 * An account, a recurring-percent program (every sale pays a commission), a partner, a link,
 * and `customers` customers each with a click and a server-mode lead.
 */
export async function setUpProgram(url: string, tag: string, customers: number): Promise<Program> {
  const { send, admin } = client(url)
  const account = await admin('POST', '/accounts', { email: `drill-${tag}@shop.test` })
  const program = await admin('POST', '/programs', {
    account_id: account.account_id,
    name: `Drill ${tag}`,
    domain: 'shop.test',
    commission_type: 'recurring_percent',
    commission_rate: 10,
  })
  const partner = await admin('POST', `/programs/${program.program_id}/partners`, { name: 'Drill partner' })
  const shortLink = `drill${tag}`
  await admin('POST', `/programs/${program.program_id}/links`, { partner_id: partner.partner_id, short_link: shortLink })
  const customerKeys: string[] = []
  await inParallel(customers, 8, async (i) => {
    const click = await send('POST', '/api/v1/track/click', { affiliate_url: `https://shop.test/?aff=${shortLink}` }, program.api_key)
    const key = `cust_${tag}_${i}`
    const lead = await send('POST', '/api/v1/track/lead', { click_id: click.json.click_id, customer_key: key }, program.api_key)
    if (lead.status !== 200) throw new Error(`lead: ${lead.status} ${JSON.stringify(lead.json)}`)
    customerKeys.push(key)
  })
  return { programId: program.program_id, apiKey: program.api_key, shortLink, customerKeys }
}

/** Runs `task` for 0..count-1 with at most `width` in flight. */
export async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < count) await task(next++)
  }
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker))
}

/** The sale body a drill sends for sale number `i` of a program (amounts vary so that sums mean something). */
export const saleBody = (program: Program, tag: string, i: number) => ({
  transaction_id: `txn_${tag}_${i}`,
  customer_key: program.customerKeys[i % program.customerKeys.length],
  amount_cents: 1_000 + (i % 97) * 13,
})

/** Every count and sum the restore must bring back identical. */
export function figures(databasePath: string): Record<string, number> {
  const db = new Database(databasePath, { readonly: true })
  try {
    const one = (sql: string) => db.prepare(sql).get() as Record<string, number>
    const sales = one('SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS sum FROM sales')
    const commissions = one("SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS sum FROM commissions WHERE kind = 'commission'")
    const reversals = one("SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS sum FROM commissions WHERE kind = 'reversal'")
    const refunded = one("SELECT count(*) AS n FROM sales WHERE status <> 'recorded'")
    return {
      sales: sales.n,
      sales_cents: sales.sum,
      commissions: commissions.n,
      commissions_cents: commissions.sum,
      reversals: reversals.n,
      reversals_cents: reversals.sum,
      customers: one('SELECT count(*) AS n FROM customers').n,
      clicks: one('SELECT count(*) AS n FROM clicks').n,
      refunds: one('SELECT count(*) AS n FROM refunds').n,
      chargebacks: one("SELECT count(*) AS n FROM refunds WHERE reason = 'chargeback'").n,
      sales_not_recorded: refunded.n,
      api_keys: one('SELECT count(*) AS n FROM api_keys').n,
    }
  } finally {
    db.close()
  }
}

/** The transaction ids stored in a database file. */
export function storedTransactions(databasePath: string): Set<string> {
  const db = new Database(databasePath, { readonly: true })
  try {
    return new Set((db.prepare('SELECT transaction_id AS t FROM sales').all() as { t: string }[]).map((r) => r.t))
  } finally {
    db.close()
  }
}

/** PRAGMA integrity_check's answer ("ok" when the file is sound). */
export function integrity(databasePath: string): string {
  const db = new Database(databasePath, { readonly: true })
  try {
    return (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ')
  } finally {
    db.close()
  }
}

/** A figure line: `name: value` pairs, printed by each drill. */
export const line = (title: string, values: Record<string, unknown>) =>
  `${title}: ${Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`
