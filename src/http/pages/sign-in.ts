import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { type Form, forbidden, pageKit } from './guard.ts'
import { html, type Safe } from './html.ts'
import { page, seeOther } from './layout.ts'
import { clearedCookie, fromOwnOrigin, sameSitePost, SESSION_LIFETIME_MS, sessionCookie, signedIn } from './session.ts'

/** A sign-in link's token when it has a token's shape, else null (never echoed otherwise). */
const linkToken = (value: string) => (/^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null)

/** The sign-in help page: where the one-time links come from. */
function signInHelp(deps: Deps, status: number, headline: Safe | string): Response {
  const base = deps.config.publicBaseUrl
  return page(
    { title: 'Sign in' },
    html`<h1>Sign in to svc</h1><p class="${status === 200 ? 'note' : 'error'}">${headline}</p>
<p>The dashboard and the partner portal have no password: you sign in with a one-time link, valid for 10 minutes.</p>
<h2>Program owners</h2><ul><li>With the command-line tool, after <code>svc login</code>: run <code>svc dashboard</code> and open the link it prints.</li>
<li>Or ask the server's operator: <pre>curl -X POST -H "Authorization: Bearer $SVC_ADMIN_TOKEN" \\
  ${base}/api/v1/admin/accounts/&lt;account_id&gt;/dashboard-link</pre></li></ul>
<h2>Partners</h2><p>Ask the program's owner for a portal link (Partners page of the dashboard, "Portal link").</p>`,
    status,
  )
}

/** Sign-in: the help page, the one-time links (a page with one button; its POST signs in) and sign-out. */
export function signInRoutes(deps: Deps) {
  const { writer, stores, now, baseUrl } = pageKit(deps)
  const linkGone = () => signInHelp(deps, 410, 'This sign-in link was already used or has expired: ask for a new one.')
  return new Elysia({ name: 'sign-in' })
    .get(
      '/sign-in',
      ({ request, query }) => {
        const signed = signedIn(deps, request)
        if (signed) return seeOther(signed.session.kind === 'account' ? '/dashboard' : '/partner')
        return signInHelp(deps, 200, query.signed_out === '1' ? 'You are signed out.' : 'You need a sign-in link to see this page.')
      },
      { detail: { hide: true } },
    )
    .get(
      '/sign-in/:token',
      ({ params }) => {
        // Opening a link (GET, and HEAD, which answers the same without a body) uses nothing up:
        // mail scanners and chat previews open links. The page's one button posts it.
        const token = linkToken(params.token)
        const who = token === null ? null : stores.webSessions.peekSignInLink(token, now())
        if (!who) return linkGone()
        const to = who.kind === 'account' ? 'your dashboard' : 'your partner portal'
        return page(
          { title: 'Sign in' },
          html`<h1>Sign in to svc</h1><p>This one-time link signs you in to ${to}.</p>
<form method="post" action="/sign-in/${token}"><button>Sign in</button></form>
<p class="muted">The link works once and for 10 minutes. If you did not ask for it, close this page: nothing happens.</p>`,
        )
      },
      { detail: { hide: true } },
    )
    .post(
      '/sign-in/:token',
      async ({ request, params }) => {
        const token = linkToken(params.token)
        if (token === null) return linkGone()
        // A browser's post must come from this server's own page (login CSRF: another site
        // posting its own link to sign a visitor in to the attacker's account).
        if (!fromOwnOrigin(deps, request)) return forbidden(baseUrl)
        const previous = signedIn(deps, request)
        const session = await writer.run(() => {
          const who = stores.webSessions.useSignInLink(token, now())
          if (!who) return null
          // The session this browser came with ends here: one browser, one session.
          if (previous) stores.webSessions.revokeWebSession(previous.session.sessionId, now())
          return { who, cookie: stores.webSessions.createWebSession(who, now(), SESSION_LIFETIME_MS) }
        })
        if (!session) return linkGone()
        return seeOther(session.who.kind === 'account' ? '/dashboard' : '/partner', { 'set-cookie': sessionCookie(deps, session.cookie) })
      },
      { detail: { hide: true } },
    )
    .post(
      '/sign-out',
      async ({ request, body }) => {
        const signed = signedIn(deps, request)
        if (!signed) return seeOther('/sign-in?signed_out=1', { 'set-cookie': clearedCookie(deps) })
        if (!sameSitePost(deps, request, signed, (body ?? {}) as Form)) return forbidden(baseUrl)
        await writer.run(() => stores.webSessions.revokeWebSession(signed.session.sessionId, now()))
        return seeOther('/sign-in?signed_out=1', { 'set-cookie': clearedCookie(deps) })
      },
      { detail: { hide: true } },
    )
}
