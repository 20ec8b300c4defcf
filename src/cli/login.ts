import { readConfig, writeConfig } from './config.ts'
import { sleep, type Ctx } from './context.ts'
import { CliError, usageError } from './errors.ts'
import { call } from './http.ts'
import { show, spinner } from './output.ts'

// The session lives 5 minutes on the server (docs/api.md, Limits); the local cap only
// guards against a server that never answers `expired`.
const LOCAL_TIMEOUT_MS = 6 * 60 * 1000
const DEFAULT_POLL_MS = 2000

/**
 * `svc login [--id-token TOKEN]`: starts a session, lets the user sign in at the
 * printed URL (or posts the given id_token to the callback), polls until the
 * login token is handed out, and saves it with the base URL in config.json (0600).
 */
export async function login(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 0) throw usageError(`svc login takes no arguments (got ${ctx.args[0]})`)
  const idToken = ctx.flags['id-token']
  if (idToken === '') throw usageError('--id-token needs a value')

  const start = await call(ctx, 'POST', '/api/v1/cli/auth/start')
  const session = start.body?.data
  if (typeof session?.state !== 'string') throw new CliError('The server answered auth/start without data.state', 1, start.body)

  if (typeof idToken === 'string') {
    await call(ctx, 'POST', '/api/v1/cli/auth/callback', { json: { state: session.state, id_token: idToken } })
  } else {
    // Under --json stdout carries one JSON document only, so the URL goes to stderr.
    const print = ctx.json ? ctx.err : ctx.out
    print(`Open this URL in a browser to sign in:\n\n  ${session.login_url}\n`)
    if (session.expires_at) print(`The link expires at ${session.expires_at}.`)
  }

  const token = await pollForToken(ctx, session.state)
  writeConfig(ctx.configPath, { ...readConfig(ctx.configPath), base_url: ctx.baseUrl, token })
  // The token is a secret and already saved; --json reports where, not what.
  show(ctx, { data: { status: 'complete', config_path: ctx.configPath }, error: null }, () =>
    ctx.out(`Logged in to ${ctx.baseUrl}. Token saved to ${ctx.configPath}.`),
  )
}

async function pollForToken(ctx: Ctx, state: string): Promise<string> {
  const interval = Number(ctx.env.SVC_POLL_INTERVAL_MS) || DEFAULT_POLL_MS
  const deadline = Date.now() + LOCAL_TIMEOUT_MS
  const waiting = spinner(ctx, 'Waiting for sign-in')
  try {
    for (;;) {
      const reply = await call(ctx, 'GET', `/api/v1/cli/auth/poll?state=${encodeURIComponent(state)}`)
      const data = reply.body?.data
      if (data?.status === 'complete' && typeof data.token === 'string') return data.token
      if (data?.status === 'expired') {
        throw new CliError('The login session expired before sign-in finished. Run `svc login` again.', 1, reply.body)
      }
      if (Date.now() > deadline) throw new CliError('Timed out waiting for sign-in. Run `svc login` again.', 1)
      await sleep(interval)
    }
  } finally {
    waiting.stop()
  }
}
