import type { Program } from '../../db/schema.ts'
import type { Actor } from '../../domain/audit.ts'
import { type Role, roleAllows } from '../../domain/role.ts'
import type { Deps } from '../deps.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { routeOf } from '../pipeline/route-lookup.ts'
import { html, Safe } from './html.ts'
import { page, seeOther } from './layout.ts'
import { sameSitePost, signedIn, type Signed } from './session.ts'

export type Query = Record<string, string | undefined>
export type Form = Record<string, string>
/** A program with the counts its tabs show (programHeader). */
export type CountedProgram = Program & { pendingApplications: number; heldCommissions: number }

/** The 404 page: nothing here, or another account's. */
export function notFound(who?: Signed): Response {
  const chrome = { title: 'Not found', who: who ? whoOf(who) : undefined }
  return page(
    chrome,
    html`<h1>Not found</h1><p>There is nothing here, or it belongs to another account.</p><p><a href="${chrome.who?.home ?? '/sign-in'}">Back</a></p>`,
    404,
  )
}

/** The 403 page of a form posted from another origin than PUBLIC_BASE_URL's. */
export function forbidden(baseUrl: string): Response {
  return page(
    { title: 'Refused' },
    html`<h1>Refused</h1><p class="error">This form was not sent from this site's own page.</p>
<p>Open the page at <a href="${baseUrl}/dashboard">${baseUrl}</a> (the server's public address) and try again.</p>`,
    403,
  )
}

/** The 403 page of a member whose role may not use this page or form. */
export function notAllowed(signed: Signed, needed: Role): Response {
  const role = signed.session.kind === 'account' ? signed.session.role : 'partner'
  return page(
    { title: 'Not allowed', who: whoOf(signed) },
    html`<h1>Not allowed</h1><p class="error" role="alert">Your role (${role}) cannot do this: it needs ${needed === 'owner' ? 'the owner' : `an ${needed}`}.</p><p><a href="/dashboard">Back to the dashboard</a></p>`,
    403,
  )
}

/**
 * The least role the request's route declares (page-rows.ts); a dashboard route that declares
 * none is the owner's, so a forgotten role refuses rather than opens.
 */
function neededRole(request: Request): Role {
  const method = request.method === 'HEAD' ? 'GET' : request.method
  return stateOf(request).entry?.methods[method]?.role ?? 'owner'
}

/**
 * The one role check of the dashboard (docs/decisions.md, Teams and the audit log): the signed-in
 * member, when their role may use the request's route; else the answer (to /sign-in without a
 * session, 403 for a role too low). Every dashboard page and form passes here.
 */
function memberOf(deps: Deps, request: Request): Member | Response {
  const signed = signedIn(deps, request)
  if (signed?.session.kind !== 'account') return seeOther('/sign-in')
  const needed = neededRole(request)
  if (!roleAllows(signed.session.role, needed)) return notAllowed(signed, needed)
  return { signed, role: signed.session.role, accountId: signed.session.accountId }
}

/** A signed-in member of an account, as memberOf lets one through. */
export interface Member {
  signed: Signed
  role: Role
  accountId: number
}

/** memberOf for a form: also same-site (Origin and form token), else 403. */
function formMemberOf(deps: Deps, request: Request, form: Form): Member | Response {
  const member = memberOf(deps, request)
  if (member instanceof Response) return member
  return sameSitePost(deps, request, member.signed, form) ? member : forbidden(deps.config.publicBaseUrl)
}

/** Who acted, for the audit log: the member's email and the raw IP of the request (Turn 4, settled). */
export function actorOf(signed: Signed, request: Request): Actor {
  return { actor: signed.session.kind === 'account' ? signed.session.email : 'partner', ip: stateOf(request).ip }
}

const POST_FORM = /<form\b[^>]*\bmethod="post"[^>]*>[\s\S]*?<\/form>/g
const LINK = /<a href="(\/dashboard[^"?#]*)[^"]*"[^>]*>[\s\S]*?<\/a>/g
/** A panel left with nothing but its heading once its forms are gone. */
const EMPTY_PANEL = /<section class="panel"[^>]*>\s*<h2>[^<]*<\/h2>\s*<\/section>/g

/**
 * A form the role may not send, as that role sees it: no form at all, or, when its fields show
 * what is set (an edit form's values), those fields read-only, without its buttons and its token.
 */
function readOnly(form: string): string {
  const inner = form.replace(/^<form\b[^>]*>/, '').replace(/<\/form>$/, '')
  const shows = /<input\b(?![^>]*type="hidden")[^>]*\bvalue="[^"]+"/.test(inner) || /<textarea\b[^>]*>[^<]+<\/textarea>/.test(inner)
  if (!shows) return ''
  const kind = /^<form\b[^>]*\bclass="([^"]*)"/.exec(form)?.[1] ?? ''
  const fields = inner.replace(/<button\b[\s\S]*?<\/button>/g, '').replace(/<input type="hidden"[^>]*>/g, '')
  return `<fieldset class="readonly ${kind}" disabled>${fields}</fieldset>`
}

/**
 * A page as `role` sees it: each form posting to, and each link to, a route that role may not use
 * is left out (a form that shows values stays, read-only), so the page offers exactly what the
 * guard would let through: a viewer no form at all, an admin no Team link and no key regeneration.
 */
export function forRole(role: Role, body: Safe): Safe {
  if (role === 'owner') return body
  const allowed = (path: string, method: string) => {
    const needed = routeOf(path)?.methods[method]?.role ?? 'owner'
    return roleAllows(role, needed)
  }
  const text = body.text
    .replace(POST_FORM, (form) => {
      const action = /\baction="([^"?#]*)/.exec(form)?.[1] ?? ''
      return allowed(action, 'POST') ? form : readOnly(form)
    })
    .replace(LINK, (link, path: string) => (allowed(path, 'GET') ? link : ''))
    .replace(EMPTY_PANEL, '')
  return new Safe(text)
}

/** The top bar's "who is signed in": the owner's email, or the partner's name and program. */
export function whoOf(signed: Signed) {
  const { session } = signed
  return session.kind === 'account'
    ? { label: session.role === 'owner' ? session.email : `${session.email} (${session.role})`, csrf: signed.csrf, home: '/dashboard' }
    : { label: session.name ?? `Partner #${session.partnerId}`, csrf: signed.csrf, home: '/partner', brand: session.programName }
}

/** A positive whole number from a path or form value, else null. */
export const positiveId = (value: string | undefined) => {
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

/**
 * What every group of owner pages is built from: the stores, the clock, and the guards of an
 * owner page (signed in as an account, the program its own) and of an owner form (also
 * same-site: Origin and form token).
 */
export function pageKit(deps: Deps) {
  const { writer, stores } = deps.database
  const store = stores.dashboard
  const now = () => deps.clock.now()
  const baseUrl = deps.config.publicBaseUrl

  /** The program as its tabs show it: how many applications and held commissions wait (docs/decisions.md: a count on the program's tabs). */
  const withCounts = (owned: Program): CountedProgram => ({
    ...owned,
    pendingApplications: stores.partners.countWithStatus(owned.id, 'pending'),
    heldCommissions: stores.sales.heldCount(owned.id),
  })

  /** An owner page's answer: titled after the page and the program, the forms the member's role may not send taken out. */
  const ownerAnswer = (member: { signed: Signed; role: Role }, program: Program, title: string, body: Safe, status = 200) =>
    page({ title: `${title} · ${program.name}`, who: whoOf(member.signed) }, forRole(member.role, body), status)

  /** An owner page: no session redirects to /sign-in; a program of another account is a 404. */
  const ownerPage =
    (
      render: (ctx: {
        signed: Signed
        /** The member's role: a page that renders its own Response passes its body through forRole with it. */
        role: Role
        accountId: number
        program: CountedProgram
        query: Query
        params: Record<string, string>
      }) => Response | Safe | Promise<Response | Safe>,
      title: string,
    ) =>
    async ({ request, params, query }: { request: Request; params: Record<string, string>; query: Query }) => {
      const member = memberOf(deps, request)
      if (member instanceof Response) return member
      const { signed, role, accountId } = member
      const programId = positiveId(params.id)
      const owned = programId === null ? null : store.findOwnedProgram(accountId, programId)
      if (!owned) return notFound(signed)
      const program = withCounts(owned)
      const out = await render({ signed, role, accountId, program, query, params })
      return out instanceof Response ? out : ownerAnswer(member, program, title, out)
    }

  /**
   * An owner form: signed in, same-site (Origin and form token), the program the account's own.
   * `show` answers with an owner page, as ownerPage renders it (the tabs' counts, the title, the
   * role's forms), for a form that answers with its page rather than a redirect: a refusal that
   * keeps what was typed (status 400), or what is shown only once.
   */
  const ownerPost =
    (
      act: (ctx: {
        signed: Signed
        by: Actor
        program: Program
        form: Form
        params: Record<string, string>
        show: (title: string, body: (program: CountedProgram) => Safe, status?: number) => Response
      }) => Promise<Response>,
    ) =>
    async ({ request, params, body }: { request: Request; params: Record<string, string>; body: unknown }) => {
      const form = (body ?? {}) as Form
      const member = formMemberOf(deps, request, form)
      if (member instanceof Response) return member
      const { signed } = member
      const programId = positiveId(params.id)
      const program = programId === null ? null : store.findOwnedProgram(member.accountId, programId)
      if (!program) return notFound(signed)
      const show = (title: string, body: (program: CountedProgram) => Safe, status = 200) => {
        const counted = withCounts(program)
        return ownerAnswer(member, counted, title, body(counted), status)
      }
      return act({ signed, by: actorOf(signed, request), program, form, params, show })
    }

  /** An account's own page (the Team page): signed in, the role the route declares. */
  const accountPage =
    (render: (ctx: { signed: Signed; accountId: number; query: Query }) => Safe, title: string) =>
    ({ request, query }: { request: Request; query: Query }) => {
      const member = memberOf(deps, request)
      if (member instanceof Response) return member
      const { signed, role, accountId } = member
      return page({ title, who: whoOf(signed) }, forRole(role, render({ signed, accountId, query })))
    }

  /** An account's own form: signed in, the role the route declares, same-site. */
  const accountPost =
    (act: (ctx: { signed: Signed; by: Actor; accountId: number; form: Form; params: Record<string, string> }) => Promise<Response>) =>
    async ({ request, params, body }: { request: Request; params: Record<string, string>; body: unknown }) => {
      const form = (body ?? {}) as Form
      const member = formMemberOf(deps, request, form)
      if (member instanceof Response) return member
      return act({ signed: member.signed, by: actorOf(member.signed, request), accountId: member.accountId, form, params })
    }

  const back = (program: Program, path: string, notice: string, kind: 'done' | 'error' = 'done') =>
    seeOther(`/dashboard/programs/${program.id}${path}?${kind}=${notice}`)

  return { writer, stores, store, now, baseUrl, ownerPage, ownerPost, accountPage, accountPost, back }
}
