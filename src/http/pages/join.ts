import { siteUrlOf } from '../../domain/site.ts'
import { Elysia } from 'elysia'
import type { PartnerGroup, Program } from '../../db/schema.ts'
import { applicantKey, controlCharAt, isEmail } from '../../domain/email.ts'
import { networkOf } from '../../domain/network.ts'
import { type Application, applyToProgram } from '../../tracking/application.ts'
import type { Deps } from '../deps.ts'
import { errorBody, HttpError, json } from '../pipeline/envelope.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { WindowLimit } from '../pipeline/window-limit.ts'
import { type Form, positiveId } from './guard.ts'
import { sendsJson } from './form.ts'
import { html } from './html.ts'
import { page } from './layout.ts'
import { termsList } from './terms.ts'

/** docs/decisions.md, Partners who join on their own: 10 applications per client IP per hour. */
const APPLICATIONS_PER_HOUR = 10
/** docs/decisions.md, Safety, third round: 100 applications per program per hour, 3 emails to one address a day. */
const APPLICATIONS_PER_PROGRAM_HOUR = 100
const EMAILS_PER_ADDRESS_DAY = 3
const HOUR_MS = 3_600_000

/** The constant answer (docs/decisions.md, Safety, third round): the same for every applicant. */
const RECEIVED = { data: { status: 'received' }, error: null }

/** The fields that must hold no control character at all; `promotion` may hold line breaks and tabs. */
const ONE_LINE_FIELDS = ['name', 'website', 'short_link'] as const

/** The application's fields, or the first refused one with the words that name it. */
export function readApplication(form: Form): { ok: true; value: Application } | { ok: false; field: string; message: string } {
  // A control character is refused before anything is trimmed: "Ada\r\nBcc: …" is no name.
  for (const field of [...ONE_LINE_FIELDS, 'promotion']) {
    if (controlCharAt(form[field] ?? '', field === 'promotion') >= 0)
      return { ok: false, field, message: `${field} must not contain control characters` }
  }
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
  group: PartnerGroup | null,
  values: Form,
  problem: { field: string; message: string } | null,
  status = 200,
  headers: Record<string, string> = {},
) {
  return page(
    { title: `Join ${program.name}`, brand: program.name },
    html`<h1>Become a partner of ${program.name}</h1>
<p class="muted">${siteUrlOf(program)}</p>
<section class="panel"><h2>What you earn</h2>${termsList(program, null, group)}</section>
${problem ? html`<p class="error" role="alert" data-field="${problem.field}">${problem.message}</p>` : ''}
<section class="panel"><h2>Apply</h2><form class="stack" method="post" action="/join/${program.id}${group ? `/${group.id}` : ''}">
<label>Your name <input name="name" value="${values.name ?? ''}" maxlength="200" required></label>
<label>Your email <input type="email" name="email" value="${values.email ?? ''}" maxlength="254" required></label>
<label>Your website (optional) <input type="url" name="website" value="${values.website ?? ''}" maxlength="300" placeholder="https://"></label>
<label>How will you promote ${program.name}? (optional) <textarea name="promotion" maxlength="1000">${values.promotion ?? ''}</textarea></label>
<label>The short link you would like (optional) <input name="short_link" value="${values.short_link ?? ''}" pattern="[A-Za-z0-9_\\-]{1,100}" maxlength="100" placeholder="yourname">
<span class="muted">Your link will be ${siteUrlOf(program)}/?aff=<i>yourname</i> when it is free.</span></label>
<label class="trap" aria-hidden="true">Company (leave empty) <input name="company" tabindex="-1" autocomplete="off"></label>
<div><button>Send my application</button></div></form></section>`,
    status,
    headers,
  )
}

/** The one page every application gets (new, known, suspended or honeypot alike): what happened is told by email only. */
function receivedPage(program: Program, mailed: boolean): Response {
  return page(
    { title: `Join ${program.name}`, brand: program.name },
    html`<h1>Check your email</h1><section class="panel"><p>${program.name} has your application.</p>${
      mailed
        ? html`<p>What happens next is sent to the email address you gave: look in your inbox (and its spam folder).</p>`
        : html`<p>This server sends no email yet: what happens next was written to the server's log, where the owner of ${program.name} reads it. They will send you your link.</p>`
    }</section>`,
  )
}

/**
 * GET and POST /join/:program_id and /join/:program_id/:group_id (its applicants join that group,
 * docs/decisions.md, Groups): the public application page (no session, no Origin check: its
 * limits hold it). Every accepted post answers the same (JSON 202 `received`, or one page), so that
 * the answer tells nothing of who is a partner; 3 emails to one address a day at most, then none.
 */
export function joinRoutes(deps: Deps) {
  const { stores } = deps.database
  const perIp = new WindowLimit(APPLICATIONS_PER_HOUR, HOUR_MS)
  const perProgram = new WindowLimit(APPLICATIONS_PER_PROGRAM_HOUR, HOUR_MS)
  const perAddress = new WindowLimit(EMAILS_PER_ADDRESS_DAY, 24 * HOUR_MS)
  // A program (and group of it) taking applications: the group's partner_signup, else the program's (docs/decisions.md, Groups).
  const openTo = (id: string, groupParam?: string) => {
    const programId = positiveId(id)
    const program = programId === null ? null : stores.programs.findProgram(programId)
    if (!program) return null
    const groupId = groupParam === undefined ? null : positiveId(groupParam)
    if (groupParam !== undefined && groupId === null) return null
    const group = groupId === null ? null : stores.groups.find(groupId, program.id)
    if (groupId !== null && !group) return null
    return (group?.partnerSignup ?? program.partnerSignup) !== 'off' ? { program, group } : null
  }
  const missing = (asJson: boolean) =>
    asJson
      ? json(errorBody(new HttpError(404, 'Program not found'), null), 404)
      : page({ title: 'Not found' }, html`<h1>Not found</h1><p>This program takes no applications.</p>`, 404)

  const show = ({ params }: { params: { program_id: string; group_id?: string } }) => {
    const open = openTo(params.program_id, params.group_id)
    return open ? joinForm(open.program, open.group, {}, null) : missing(false)
  }
  const apply = async ({
    params,
    request,
    body,
  }: {
    params: { program_id: string; group_id?: string }
    request: Request
    body: unknown
  }) => {
    const asJson = sendsJson(request)
    const form = (body ?? {}) as Form
    // The group comes from the path (its own join page), or from a `group_id` field (JSON bodies).
    const groupParam = params.group_id ?? (form.group_id === undefined || form.group_id === '' ? undefined : String(form.group_id))
    const open = openTo(params.program_id, groupParam)
    if (!open) return missing(asJson)
    const { program, group } = open
    const refuse = (status: number, problem: { field: string; message: string }, headers: Record<string, string> = {}) =>
      asJson
        ? json(errorBody(new HttpError(status, problem.message), null), status, headers)
        : joinForm(program, group, form, problem, status, headers)
    const ip = stateOf(request).ip
    const now = deps.clock.now()
    const tooMany = (limit: WindowLimit, key: string, message: string) => {
      const wait = limit.take(key, now)
      return wait === null ? null : refuse(429, { field: 'ip', message }, { 'retry-after': String(wait) })
    }
    const refused = tooMany(
      perIp,
      networkOf(ip),
      'Too many applications from this address. Retry after the number of seconds in Retry-After.',
    )
    if (refused) return refused
    const received = () => (asJson ? json(RECEIVED, 202) : receivedPage(program, deps.mail.delivery === 'smtp'))
    // The honeypot: a person never fills the hidden field. Answered as any application; nothing is stored or sent.
    if ((form.company ?? '').trim() !== '') return received()
    const read = readApplication(form)
    if (!read.ok) return refuse(400, read)
    const busy = tooMany(
      perProgram,
      String(program.id),
      'Too many applications to this program. Retry after the number of seconds in Retry-After.',
    )
    if (busy) return busy
    // Past its emails for the day an address is still answered the same, and sent nothing. Only
    // an email actually queued to it counts (a repeat applicant is sent none).
    const address = applicantKey(read.value.email)
    const mayMail = () => perAddress.take(address, now) === null
    const outcome = await applyToProgram(deps, deps.mail, program.id, read.value, ip, mayMail, group?.id ?? null)
    if (outcome.kind === 'closed') return missing(asJson)
    return received()
  }

  return new Elysia({ name: 'join' })
    .get('/join/:program_id', show, { detail: { hide: true } })
    .get('/join/:program_id/:group_id', show, { detail: { hide: true } })
    .post('/join/:program_id', apply, { detail: { hide: true } })
    .post('/join/:program_id/:group_id', apply, { detail: { hide: true } })
}
