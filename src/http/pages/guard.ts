import type { Program } from '../../db/schema.ts'
import type { Deps } from '../deps.ts'
import { html, type Safe } from './html.ts'
import { page, seeOther } from './layout.ts'
import { sameSitePost, signedIn, type Signed } from './session.ts'

export type Query = Record<string, string | undefined>
export type Form = Record<string, string>

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

/** The top bar's "who is signed in": the owner's email, or the partner's name and program. */
export function whoOf(signed: Signed) {
  const { session } = signed
  return session.kind === 'account'
    ? { label: session.email, csrf: signed.csrf, home: '/dashboard' }
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

  /** An owner page: no session redirects to /sign-in; a program of another account is a 404. */
  const ownerPage =
    (
      render: (ctx: {
        signed: Signed
        accountId: number
        program: Program
        query: Query
        params: Record<string, string>
      }) => Response | Safe | Promise<Response | Safe>,
      title: string,
    ) =>
    async ({ request, params, query }: { request: Request; params: Record<string, string>; query: Query }) => {
      const signed = signedIn(deps, request)
      if (signed?.session.kind !== 'account') return seeOther('/sign-in')
      const programId = positiveId(params.id)
      const owned = programId === null ? null : store.findOwnedProgram(signed.session.accountId, programId)
      if (!owned) return notFound(signed)
      // The tabs show how many applications and held commissions wait (docs/decisions.md: a count on the program's tabs).
      const program = {
        ...owned,
        pendingApplications: stores.partners.countWithStatus(owned.id, 'pending'),
        heldCommissions: stores.sales.heldCount(owned.id),
      }
      const out = await render({ signed, accountId: signed.session.accountId, program, query, params })
      return out instanceof Response ? out : page({ title: `${title} · ${program.name}`, who: whoOf(signed) }, out)
    }

  /** An owner form: signed in, same-site (Origin and form token), the program the account's own. */
  const ownerPost =
    (act: (ctx: { signed: Signed; program: Program; form: Form; params: Record<string, string> }) => Promise<Response>) =>
    async ({ request, params, body }: { request: Request; params: Record<string, string>; body: unknown }) => {
      const form = (body ?? {}) as Form
      const signed = signedIn(deps, request)
      if (signed?.session.kind !== 'account') return seeOther('/sign-in')
      if (!sameSitePost(deps, request, signed, form)) return forbidden(baseUrl)
      const programId = positiveId(params.id)
      const program = programId === null ? null : store.findOwnedProgram(signed.session.accountId, programId)
      if (!program) return notFound(signed)
      return act({ signed, program, form, params })
    }

  const back = (program: Program, path: string, notice: string, kind: 'done' | 'error' = 'done') =>
    seeOther(`/dashboard/programs/${program.id}${path}?${kind}=${notice}`)

  return { writer, stores, store, now, baseUrl, ownerPage, ownerPost, back }
}
