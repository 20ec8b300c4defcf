import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { applicantKey, isEmail } from '../../domain/email.ts'
import { networkOf } from '../../domain/network.ts'
import { ipHash } from '../../tracking/ip-hash.ts'
import { emailSignInLinks } from '../../tracking/sign-in-link.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { WindowLimit } from '../pipeline/window-limit.ts'
import { type Form, forbidden, pageKit } from './guard.ts'
import { when } from './format.ts'
import { html, type Safe } from './html.ts'
import { page, seeOther } from './layout.ts'
import { clearedCookie, fromOwnOrigin, sameSitePost, SESSION_LIFETIME_MS, sessionCookie, signedIn } from './session.ts'

/** A sign-in link's token when it has a token's shape, else null (never echoed otherwise). */
const linkToken = (value: string) => (/^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null)

/** docs/decisions.md, Email: at most 5 links per email and 20 per IP an hour. */
const LINKS_PER_EMAIL = 5
const LINKS_PER_IP = 20

type Door = 'account' | 'partner'

/**
 * How long after its answer a sign-in request is looked up (docs/decisions.md, Safety, third
 * round): a known email's write (a commit with fsync) must not land inside its own answer's time,
 * nor the very next request's, or the time would tell who has an account.
 */
const LOOKUP_DELAY_MS = 50
/** Up to this much more, at random: the commit does not land at a fixed time after the answer either. */
const LOOKUP_JITTER_MS = 100

/** Work queued now and run together `delayMs` later, after the answers that queued it are sent. */
class LaterQueue<T> {
  private items: T[] = []
  private timer: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly delayMs: () => number,
    private readonly run: (item: T) => unknown,
  ) {}

  push(item: T): void {
    this.items.push(item)
    this.timer ??= setTimeout(() => {
      const items = this.items
      this.items = []
      this.timer = null
      for (const each of items) this.run(each)
    }, this.delayMs())
  }
}

/** The email form of a sign-in page; without SMTP, it says where the link goes instead. */
function emailForm(deps: Deps, door: Door): Safe {
  const action = door === 'account' ? '/sign-in' : '/partner/sign-in'
  const logged =
    deps.mail.delivery === 'log'
      ? door === 'account'
        ? html`<p class="muted">This server has no SMTP_URL: the link is written to the server's log (the terminal running svc), one line starting <code>svc: mail to</code>.</p>`
        : html`<p class="muted">This server sends no email yet: the link is written to the server's log, which the program's owner reads. Ask them for it.</p>`
      : deps.mail.delivery === 'off'
        ? html`<p class="muted">This server sends no email and logs none (MAIL_LOG=off): ${door === 'account' ? "ask the server's operator for a sign-in link" : "ask the program's owner for a portal sign-in link"}.</p>`
        : ''
  return html`${logged}<form class="stack" method="post" action="${action}"><label>Your email <input type="email" name="email" maxlength="254" required autocomplete="email"></label>
<div><button>Email me a sign-in link</button></div></form>`
}

/** The sign-in page of owners (`account`) or partners, with `headline` and, for owners, where links come from. */
function signInPage(deps: Deps, door: Door, status: number, headline: Safe | string, headers: Record<string, string> = {}): Response {
  const base = deps.config.publicBaseUrl
  const owners = html`<h2>Other ways for program owners</h2><ul><li>With the command-line tool, after <code>svc login</code>: run <code>svc dashboard</code> and open the link it prints.</li>
<li>Or ask the server's operator: <pre>curl -X POST -H "Authorization: Bearer $SVC_ADMIN_TOKEN" \\
  ${base}/api/v1/admin/accounts/&lt;account_id&gt;/dashboard-link</pre></li></ul>
<p>Partners sign in at <a href="/partner/sign-in">/partner/sign-in</a>.</p>`
  return page(
    { title: 'Sign in' },
    html`<h1>${door === 'account' ? 'Sign in to svc' : 'Partner sign-in'}</h1><p class="${status < 400 ? 'note' : 'error'}" role="${status < 400 ? 'status' : 'alert'}">${headline}</p>
<p>There is no password: you sign in with a one-time link, valid for 10 minutes.</p>
<section class="panel">${emailForm(deps, door)}</section>
${door === 'account' ? owners : html`<p class="muted">Program owners sign in at <a href="/sign-in">/sign-in</a>.</p>`}`,
    status,
    headers,
  )
}

/** The sign-in help page (owners): where the one-time links come from. */
function signInHelp(deps: Deps, status: number, headline: Safe | string): Response {
  return signInPage(deps, 'account', status, headline)
}

/** Sign-in: the help page, the one-time links (a page with one button; its POST signs in) and sign-out. */
export function signInRoutes(deps: Deps) {
  const { writer, stores, now, baseUrl } = pageKit(deps)
  const linkGone = () => signInHelp(deps, 410, 'This sign-in link was already used or has expired: ask for a new one.')
  const perEmail = new WindowLimit(LINKS_PER_EMAIL, 3_600_000)
  const perIp = new WindowLimit(LINKS_PER_IP, 3_600_000)
  const later = new LaterQueue<{ door: Door; email: string }>(
    () => LOOKUP_DELAY_MS + Math.random() * LOOKUP_JITTER_MS,
    (asked) =>
      emailSignInLinks(deps, deps.mail, asked.door, asked.email).catch((error: unknown) =>
        deps.log({ level: 'error', msg: 'sign-in link not queued', error: String(error) }),
      ),
  )
  /** POST /sign-in and /partner/sign-in: the same words whether or not the email is known. */
  const askForLink =
    (door: Door) =>
    async ({ request, body }: { request: Request; body: unknown }) => {
      const email = ((body ?? {}) as Form).email?.trim() ?? ''
      const network = networkOf(stateOf(request).ip)
      const now = deps.clock.now()
      const wait = perIp.take(network, now)
      if (wait !== null) {
        return signInPage(deps, door, 429, 'Too many sign-in links asked from this address: try again later.', {
          'retry-after': String(wait),
        })
      }
      const address = isEmail(email) ? applicantKey(email) : null
      if (address !== null && perEmail.take(address, now) === null) later.push({ door, email })
      return signInPage(
        deps,
        door,
        200,
        {
          smtp: 'If that email belongs to an account here, a sign-in link is on its way. It works once, for 10 minutes.',
          // Markup, not a string: the apostrophe reaches the page as it is written.
          log:
            door === 'account'
              ? html`If that email belongs to an account here, the link was written to the server's log. It works once, for 10 minutes.`
              : html`If that email belongs to a partner here, the link was written to the server's log: ask the program's owner for it. It works once, for 10 minutes.`,
          off: "This server sends no email: ask the server's operator for a sign-in link.",
        }[deps.mail.delivery],
      )
    }
  return (
    new Elysia({ name: 'sign-in' })
      .post('/sign-in', askForLink('account'), { detail: { hide: true } })
      .get(
        '/partner/sign-in',
        ({ request, query }) => {
          const signed = signedIn(deps, request)
          if (signed?.session.kind === 'partner') return seeOther('/partner')
          return signInPage(deps, 'partner', 200, query.signed_out === '1' ? 'You are signed out.' : 'Sign in to your partner portal.')
        },
        { detail: { hide: true } },
      )
      .post('/partner/sign-in', askForLink('partner'), { detail: { hide: true } })
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
<p class="muted">The link works once, until ${when(who.expiresAt)}. If you did not expect it, close this page: nothing happens.</p>`,
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
            // A partner's sign-in IP, as a keyed hash, for the same_ip fraud signal.
            const hash = ipHash(deps.secret, stateOf(request).ip)
            if (who.kind === 'partner' && hash !== null) stores.partners.rememberIp(who.partnerId, hash, now())
            // The session this browser came with ends here: one browser, one session.
            if (previous) stores.webSessions.revokeWebSession(previous.session.sessionId, now())
            return { who, cookie: stores.webSessions.createWebSession(who, now(), SESSION_LIFETIME_MS) }
          })
          if (!session) return linkGone()
          return seeOther(session.who.kind === 'account' ? '/dashboard' : '/partner', { 'set-cookie': sessionCookie(deps, session.cookie) })
        },
        { detail: { hide: true } },
      )
      // A sign-out is a form's post (a link another site shows must not sign anyone out): opened by
      // hand, the address leads to the page that has the button.
      .get('/sign-out', () => seeOther('/'), { detail: { hide: true } })
      .post(
        '/sign-out',
        async ({ request, body }) => {
          const signed = signedIn(deps, request)
          if (!signed) return seeOther('/sign-in?signed_out=1', { 'set-cookie': clearedCookie(deps) })
          if (!sameSitePost(deps, request, signed, (body ?? {}) as Form)) return forbidden(baseUrl)
          await writer.run(() => stores.webSessions.revokeWebSession(signed.session.sessionId, now()))
          // A partner lands on the partner sign-in (docs/decisions.md, The first hour), an owner on theirs.
          const to = signed.session.kind === 'partner' ? '/partner/sign-in?signed_out=1' : '/sign-in?signed_out=1'
          return seeOther(to, { 'set-cookie': clearedCookie(deps) })
        },
        { detail: { hide: true } },
      )
  )
}
