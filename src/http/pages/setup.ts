import { Elysia } from 'elysia'
import { hashSecret, sameDigest } from '../../db/credentials.ts'
import { isEmail } from '../../domain/email.ts'
import type { Deps } from '../deps.ts'
import { errorBody, HttpError, json } from '../pipeline/envelope.ts'
import { networkOf } from '../../domain/network.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { WindowLimit } from '../pipeline/window-limit.ts'
import { sendsJson } from './form.ts'
import { html, type Safe } from './html.ts'
import { page, seeOther } from './layout.ts'
import { copyField } from './owner-pages.ts'
import { type FieldProblem, programFields, type Read, readProgramForm } from './program-form.ts'
import { SESSION_LIFETIME_MS, sessionCookie, signedIn } from './session.ts'

/** docs/decisions.md, First run: 10 wrong codes an IP an hour, then 429. */
const WRONG_CODES_PER_HOUR = 10
const HOUR_MS = 3_600_000

/** The setup code as typed: case and the dashes or spaces between its groups do not matter. */
const plainCode = (text: string) => text.toUpperCase().replaceAll('-', '').replaceAll(' ', '')

interface Owner {
  email: string
  name: string | null
}

function readOwner(form: Record<string, string>): Read<Owner> {
  const email = (form.email ?? '').trim()
  if (!isEmail(email)) return { ok: false, field: 'email', message: 'email must be an email address' }
  const name = (form.name ?? '').trim()
  if (name.length > 200) return { ok: false, field: 'name', message: 'name must be a text of at most 200 characters' }
  return { ok: true, value: { email, name: name || null } }
}

function setupForm(values: Record<string, string>, problem: FieldProblem | null, status = 200, headers: Record<string, string> = {}) {
  return page(
    { title: 'Set up svc' },
    html`<h1>Set up svc</h1>
<p>Create your owner account and your first referral program. The setup code is in the server's output, on the line that starts with <code>svc: first run</code>.</p>
${problem ? html`<p class="error" role="alert" data-field="${problem.field}">${problem.message}</p>` : ''}
<section class="panel"><form class="stack" method="post" action="/setup">
<label>Setup code <input name="code" value="${values.code ?? ''}" autocomplete="off" required placeholder="XXXX-XXXX-XXXX"></label>
<h2>You</h2>
<label>Your email <input type="email" name="email" value="${values.email ?? ''}" maxlength="254" required></label>
<label>Your name <input name="name" value="${values.name ?? ''}" maxlength="200"></label>
<h2>Your first program</h2>
${programFields(values, 'program_')}
<div><button>Create my account and program</button></div></form></section>`,
    status,
    headers,
  )
}

function donePage(data: { programId: number; apiKey: string; baseUrl: string }): Safe {
  const snippet = `<script src="${data.baseUrl}/tracker.js" data-svc-program-id="${data.programId}" defer></script>`
  return html`<h1>Your program is ready</h1>
<section class="note" role="status"><h2>Your API key</h2><p>Shown only this once: store it now (a secret manager, or <code>SVC_API_KEY</code> on your server). Your server sends it to report signups, sales and refunds.</p>${copyField('api-key', data.apiKey, 'API key')}</section>
<section class="panel"><h2>Next steps</h2><ol>
<li>Put the tracker on every page of your site:<pre>${snippet}</pre></li>
<li>Add a partner and a referral link on the Partners page.</li>
<li>Report signups and sales from your server with a track key: make one in Settings → Track keys (the reference is at <a href="/docs">/docs</a>). Keep this API key for the <code>svc</code> command line.</li></ol>
<p><a class="button" href="/dashboard/programs/${data.programId}">Open your dashboard</a></p></section>`
}

/**
 * GET / and the first run (docs/decisions.md, First run): `/` leads to the dashboard, sign-in or
 * setup; `/setup` exists only while no account does, and the setup code printed at start creates
 * the owner's account and first program, shows the key once and signs the owner in.
 */
export function setupRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const wrongCodes = new WindowLimit(WRONG_CODES_PER_HOUR, HOUR_MS)
  const open = () => deps.firstRun.code !== null && !stores.accounts.hasAccounts()
  const gone = (request: Request) =>
    sendsJson(request)
      ? json(errorBody(new HttpError(404, 'Route not found'), null), 404)
      : page({ title: 'Not found' }, html`<h1>Not found</h1><p>svc is set up already. <a href="/sign-in">Sign in</a>.</p>`, 404)

  return new Elysia({ name: 'setup' })
    .get(
      '/',
      ({ request }) => {
        const signed = signedIn(deps, request)
        if (signed) return seeOther(signed.session.kind === 'account' ? '/dashboard' : '/partner')
        return seeOther(stores.accounts.hasAccounts() ? '/sign-in' : '/setup')
      },
      { detail: { hide: true } },
    )
    .get('/setup', ({ request }) => (open() ? setupForm({}, null) : gone(request)), { detail: { hide: true } })
    .post(
      '/setup',
      async ({ request, body }) => {
        if (!open()) return gone(request)
        const asJson = sendsJson(request)
        const form = (body ?? {}) as Record<string, string>
        const ip = networkOf(stateOf(request).ip)
        const now = deps.clock.now()
        const refuse = (status: number, problem: FieldProblem, headers: Record<string, string> = {}) =>
          asJson
            ? json(errorBody(new HttpError(status, problem.message), null), status, headers)
            : setupForm({ ...form, code: status === 403 ? '' : (form.code ?? '') }, problem, status, headers)
        const wait = wrongCodes.retryAfter(ip, now)
        if (wait !== null) {
          return refuse(
            429,
            { field: 'code', message: 'Too many wrong setup codes from this address. Retry after the number of seconds in Retry-After.' },
            { 'retry-after': String(wait) },
          )
        }
        // Compared as SHA-256 digests in constant time (sameDigest reads hex).
        if (!sameDigest(hashSecret(plainCode(form.code ?? '')), hashSecret(plainCode(deps.firstRun.code ?? '')))) {
          wrongCodes.hit(ip, now)
          return refuse(403, { field: 'code', message: 'This is not the setup code the server printed at start' })
        }
        const owner = readOwner(form)
        if (!owner.ok) return refuse(400, owner)
        const program = readProgramForm(form, 'program_')
        if (!program.ok) return refuse(400, program)
        const made = await writer.run(() => {
          // Two posts racing: the first one's account exists by the second one's unit.
          if (stores.accounts.hasAccounts()) return null
          const account = stores.accounts.createAccount({ email: owner.value.email, name: owner.value.name ?? undefined, createdAt: now })
          const created = stores.programs.createProgram({ advertiserId: account.advertiserId, createdAt: now, ...program.value })
          const cookie = stores.webSessions.createWebSession({ kind: 'account', accountId: account.accountId }, now, SESSION_LIFETIME_MS)
          return { ...account, ...created, cookie }
        })
        if (!made) return gone(request)
        deps.firstRun.code = null
        const headers = { 'set-cookie': sessionCookie(deps, made.cookie) }
        if (asJson) {
          const data = { account_id: made.accountId, program_id: made.programId, api_key: made.apiKey }
          return json({ data, error: null }, 201, headers)
        }
        return page(
          { title: 'Ready' },
          donePage({ programId: made.programId, apiKey: made.apiKey, baseUrl: deps.config.publicBaseUrl }),
          200,
          headers,
        )
      },
      { detail: { hide: true } },
    )
}
