import { Elysia } from 'elysia'
import type { Program } from '../../db/schema.ts'
import { isEmail } from '../../domain/email.ts'
import { type Application, applyToProgram } from '../../tracking/application.ts'
import type { Deps } from '../deps.ts'
import { errorBody, HttpError, json } from '../pipeline/envelope.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { WindowLimit } from '../pipeline/window-limit.ts'
import { type Form, positiveId } from './guard.ts'
import { sendsJson } from './form.ts'
import { html, type Safe } from './html.ts'
import { page } from './layout.ts'
import { termsList } from './terms.ts'

/** docs/decisions.md, Partners who join on their own: 10 applications per client IP per hour. */
const APPLICATIONS_PER_HOUR = 10

/** The application's fields, or the first refused one with the words that name it. */
export function readApplication(form: Form): { ok: true; value: Application } | { ok: false; field: string; message: string } {
  const text = (name: string) => (form[name] ?? '').trim()
  const name = text('name')
  if (!name || name.length > 200) return { ok: false, field: 'name', message: 'name is required and must be at most 200 characters' }
  const email = text('email')
  if (!isEmail(email)) return { ok: false, field: 'email', message: 'email must be an email address' }
  const website = text('website')
  if (website.length > 300 || (website !== '' && !/^https?:\/\/[^\s]+$/i.test(website)))
    return { ok: false, field: 'website', message: 'website must be an http(s) URL of at most 300 characters' }
  const promotion = text('promotion')
  if (promotion.length > 1000) return { ok: false, field: 'promotion', message: 'promotion must be at most 1000 characters' }
  const shortLink = text('short_link')
  if (shortLink !== '' && !/^[A-Za-z0-9_-]{1,100}$/.test(shortLink))
    return { ok: false, field: 'short_link', message: 'short_link must be 1 to 100 letters, digits, - or _' }
  return { ok: true, value: { name, email, website: website || null, promotion: promotion || null, shortLink: shortLink || null } }
}

function joinForm(
  program: Program,
  values: Form,
  problem: { field: string; message: string } | null,
  status = 200,
  headers: Record<string, string> = {},
) {
  return page(
    { title: `Join ${program.name}` },
    html`<h1>Become a partner of ${program.name}</h1>
<p class="muted">${program.domain}</p>
<section class="panel"><h2>What you earn</h2>${termsList(program)}</section>
${problem ? html`<p class="error" role="alert" data-field="${problem.field}">${problem.message}</p>` : ''}
<section class="panel"><h2>Apply</h2><form class="stack" method="post" action="/join/${program.id}">
<label>Your name <input name="name" value="${values.name ?? ''}" maxlength="200" required></label>
<label>Your email <input type="email" name="email" value="${values.email ?? ''}" maxlength="254" required></label>
<label>Your website (optional) <input type="url" name="website" value="${values.website ?? ''}" maxlength="300" placeholder="https://"></label>
<label>How will you promote ${program.name}? (optional) <textarea name="promotion" maxlength="1000">${values.promotion ?? ''}</textarea></label>
<label>The short link you would like (optional) <input name="short_link" value="${values.short_link ?? ''}" pattern="[A-Za-z0-9_\\-]{1,100}" maxlength="100" placeholder="yourname">
<span class="muted">Your link will be https://${program.domain}/?aff=<i>yourname</i> when it is free.</span></label>
<label class="trap" aria-hidden="true">Company (leave empty) <input name="company" tabindex="-1" autocomplete="off"></label>
<div><button>Send my application</button></div></form></section>`,
    status,
    headers,
  )
}

function sentPage(program: Program, status: 'pending' | 'active' | string, mailOn: boolean, email: string): Safe {
  if (status === 'active') {
    return html`<h1>Welcome to ${program.name}</h1><section class="panel"><p>You are a partner now.</p>
<p>${mailOn ? html`We sent your referral link and a sign-in link for your partner portal to <b>${email}</b>.` : html`Ask ${program.name}'s owner for your portal sign-in link: it shows your referral link, clicks and commissions.`}</p></section>`
  }
  return html`<h1>Thank you</h1><section class="panel"><p>${program.name} has your application and reviews each one.</p>
<p>${mailOn ? html`You will get an email at <b>${email}</b> when they decide, with your referral link if they approve.` : html`Ask ${program.name}'s owner about your application: they will give you your portal sign-in link once approved.`}</p></section>`
}

/**
 * GET and POST /join/:program_id: the public application page (no session, no Origin check: its
 * limits hold it), JSON posts answered 201 in the platform envelope.
 */
export function joinRoutes(deps: Deps) {
  const { stores } = deps.database
  const perIp = new WindowLimit(APPLICATIONS_PER_HOUR, 3_600_000)
  const openProgram = (id: string) => {
    const programId = positiveId(id)
    const program = programId === null ? null : stores.programs.findProgram(programId)
    return program && program.partnerSignup !== 'off' ? program : null
  }
  const missing = (asJson: boolean) =>
    asJson
      ? json(errorBody(new HttpError(404, 'Program not found'), null), 404)
      : page({ title: 'Not found' }, html`<h1>Not found</h1><p>This program takes no applications.</p>`, 404)

  return new Elysia({ name: 'join' })
    .get(
      '/join/:program_id',
      ({ params }) => {
        const program = openProgram(params.program_id)
        return program ? joinForm(program, {}, null) : missing(false)
      },
      { detail: { hide: true } },
    )
    .post(
      '/join/:program_id',
      async ({ params, request, body }) => {
        const asJson = sendsJson(request)
        const program = openProgram(params.program_id)
        if (!program) return missing(asJson)
        const form = (body ?? {}) as Form
        const refuse = (status: number, problem: { field: string; message: string }, headers: Record<string, string> = {}) =>
          asJson
            ? json(errorBody(new HttpError(status, problem.message), null), status, headers)
            : joinForm(program, form, problem, status, headers)
        const ip = stateOf(request).ip
        const now = deps.clock.now()
        const wait = perIp.retryAfter(ip, now)
        if (wait !== null) {
          return refuse(
            429,
            { field: 'ip', message: 'Too many applications from this address. Retry after the number of seconds in Retry-After.' },
            { 'retry-after': String(wait) },
          )
        }
        perIp.hit(ip, now)
        const read = readApplication(form)
        // The honeypot: a person never fills the hidden field. Answered as a success; nothing is stored or sent.
        if ((form.company ?? '').trim() !== '') {
          return asJson
            ? json({ data: { partner_id: null, status: 'pending' }, error: null }, 201)
            : page({ title: `Join ${program.name}` }, sentPage(program, 'pending', deps.mail.on, read.ok ? read.value.email : ''))
        }
        if (!read.ok) return refuse(400, read)
        const outcome = await applyToProgram(deps, deps.mail, program.id, read.value, ip)
        if (outcome.kind === 'closed') return missing(asJson)
        const { partner } = outcome
        if (asJson) return json({ data: { partner_id: partner.id, status: partner.status }, error: null }, 201)
        return page({ title: `Join ${program.name}` }, sentPage(program, partner.status, deps.mail.on, read.value.email))
      },
      { detail: { hide: true } },
    )
}
