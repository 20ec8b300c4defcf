import { Elysia } from 'elysia'
import { DAY_MS, parseCursor } from '../../db/dashboard-store.ts'
import type { Program } from '../../db/schema.ts'
import type { SessionOf } from '../../db/web-session-store.ts'
import type { Deps } from '../deps.ts'
import { normalizeDomain } from '../pipeline/origin.ts'
import { rateFits } from '../../domain/commission.ts'
import { readinessChecks } from '../../domain/readiness.ts'
import { issueSignInLink } from '../../tracking/sign-in-link.ts'
import { favicon, script, stylesheet } from './assets.ts'
import { html, type Safe } from './html.ts'
import * as owner from './owner-pages.ts'
import { page, seeOther } from './layout.ts'
import { portalPage } from './portal-page.ts'
import { commissionStatusTotals, payoutsCsv, payoutsPage, portalPayouts, runPayouts } from './payouts.ts'
import { commissionStatuses } from '../../tracking/commission-status.ts'
import { clearedCookie, fromOwnOrigin, sameSitePost, sessionCookie, SESSION_LIFETIME_MS, signedIn, type Signed } from './session.ts'

type Query = Record<string, string | undefined>
type Form = Record<string, string>

const asset = (body: string, type: string) => () =>
  new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' } })

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

function notFound(who?: Signed): Response {
  const chrome = { title: 'Not found', who: who ? whoOf(who) : undefined }
  return page(
    chrome,
    html`<h1>Not found</h1><p>There is nothing here, or it belongs to another account.</p><p><a href="${chrome.who?.home ?? '/sign-in'}">Back</a></p>`,
    404,
  )
}

function forbidden(baseUrl: string): Response {
  return page(
    { title: 'Refused' },
    html`<h1>Refused</h1><p class="error">This form was not sent from this site's own page.</p>
<p>Open the page at <a href="${baseUrl}/dashboard">${baseUrl}</a> (the server's public address) and try again.</p>`,
    403,
  )
}

function whoOf(signed: Signed) {
  const { session } = signed
  return session.kind === 'account'
    ? { label: session.email, csrf: signed.csrf, home: '/dashboard' }
    : { label: `Partner #${session.partnerId}`, csrf: signed.csrf, home: '/partner' }
}

const positiveId = (value: string | undefined) => {
  const n = Number(value)
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

/** The dashboard, the partner portal, sign-in and sign-out: HTML pages over the src/db stores. */
export function webRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const store = stores.dashboard
  const now = () => deps.clock.now()
  const baseUrl = deps.config.publicBaseUrl
  const linkGone = () => signInHelp(deps, 410, 'This sign-in link was already used or has expired: ask for a new one.')

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
      const program = programId === null ? null : store.findOwnedProgram(signed.session.accountId, programId)
      if (!program) return notFound(signed)
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

  return new Elysia({ name: 'web' })
    .get('/assets/dashboard.css', asset(stylesheet, 'text/css; charset=utf-8'), { detail: { hide: true } })
    .get('/assets/dashboard.js', asset(script, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
    .get('/assets/favicon.svg', asset(favicon, 'image/svg+xml'), { detail: { hide: true } })
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
    .get(
      '/dashboard',
      ({ request }) => {
        const signed = signedIn(deps, request)
        if (signed?.session.kind !== 'account') return seeOther('/sign-in')
        const list = store.accountPrograms(signed.session.accountId).map((program) => ({
          program,
          funnel: store.programFunnel(program.id),
          money: store.programMoney(program.id),
        }))
        return page({ title: 'Programs', who: whoOf(signed) }, owner.programsPage(list))
      },
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id',
      ownerPage(({ program, query }) => {
        const span = query.days === '90' ? 90 : 30
        const key = store.currentApiKey(program.id)
        const facts = store.dashboardReadinessFacts(program.id)
        const checks = key
          ? readinessChecks(program, key, facts)
          : [{ id: 'api_key', ok: false, message: 'The program has no active API key.' }]
        return owner.overviewPage(program, {
          funnel: store.programFunnel(program.id),
          test: store.programFunnel(program.id, true),
          money: store.programMoney(program.id),
          days: store.programDays(program.id, now(), span),
          span,
          checks,
        })
      }, 'Overview'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/partners',
      ownerPage(
        ({ program, signed, query }) =>
          html`${owner.notice(query)}${owner.partnersPage(program, {
            partners: store.programPartners(program.id),
            links: store.programLinks(program.id),
            figures: store.partnerFigures(program.id),
            csrf: signed.csrf,
            statuses: commissionStatusTotals(deps, program),
          })}`,
        'Partners',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners',
      ownerPost(async ({ program, form }) => {
        const name = (form.name ?? '').trim()
        const email = (form.email ?? '').trim()
        if (!name || name.length > 200 || (email && (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))))
          return back(program, '/partners', 'partner_invalid', 'error')
        await writer.run(() => store.createPartner(program.id, name, email || null, now()))
        return back(program, '/partners', 'partner_created')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/links',
      ownerPost(async ({ program, form }) => {
        const shortLink = (form.short_link ?? '').trim()
        const partnerId = positiveId(form.partner_id)
        if (!/^[A-Za-z0-9_-]{1,100}$/.test(shortLink)) return back(program, '/partners', 'short_link_invalid', 'error')
        if (partnerId === null) return back(program, '/partners', 'no_partner', 'error')
        const made = await writer.run(() => store.createLink(program.id, partnerId, shortLink, now()))
        if (made.kind === 'taken') return back(program, '/partners', 'short_link_taken', 'error')
        if (made.kind === 'no_partner') return back(program, '/partners', 'no_partner', 'error')
        return back(program, '/partners', 'link_created')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/links/:link_id/active',
      ownerPost(async ({ program, form, params }) => {
        const linkId = positiveId(params.link_id)
        const active = form.active === 'true'
        const changed = linkId !== null && (await writer.run(() => store.setLinkActive(program.id, linkId, active)))
        if (!changed) return back(program, '/partners', 'link_missing', 'error')
        // A link turned off answers 410 from the next click on.
        return back(program, '/partners', active ? 'link_on' : 'link_off')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/portal-link',
      ownerPost(async ({ program, params, signed }) => {
        const partnerId = positiveId(params.partner_id)
        const partner = partnerId === null ? null : store.findPartner(partnerId)
        if (!partner || partner.programId !== program.id) return notFound(signed)
        const link = await issueSignInLink(deps, deps.config.publicBaseUrl, { kind: 'partner', partnerId: partner.id })
        return page({ title: 'Portal link', who: whoOf(signed) }, owner.portalLinkPage(program, partner, link))
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/sign-out',
      ownerPost(async ({ program, params, signed }) => {
        const partnerId = positiveId(params.partner_id)
        const partner = partnerId === null ? null : store.findPartner(partnerId)
        if (!partner || partner.programId !== program.id) return notFound(signed)
        await writer.run(() => stores.webSessions.revokeAllOf({ kind: 'partner', partnerId: partner.id }, now()))
        return back(program, '/partners', 'partner_signed_out')
      }),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/sales',
      ownerPage(({ program, query }) => owner.salesPage(program, store.salesPage(program.id, parseCursor(query.cursor))), 'Sales'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/commissions',
      ownerPage(({ program, query }) => {
        const ledger = store.commissionsPage(program.id, parseCursor(query.cursor))
        const statuses = commissionStatuses(
          deps,
          program.id,
          ledger.rows.map((r) => r.id),
        )
        return owner.commissionsPage(program, ledger, (row) => (row.testMode ? 'test' : (statuses.get(row.id) ?? '')))
      }, 'Commissions'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/events',
      ownerPage(
        ({ program, query }) => owner.eventsPage(program, store.eventsPage(program.id, parseCursor(query.cursor))),
        'Stripe events',
      ),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/payouts',
      ownerPage(({ program, signed, query }) => {
        const cursor = positiveId(query.cursor)
        return html`${owner.notice(query)}${payoutsPage(program, store.payoutsPage(program.id, cursor), signed.csrf)}`
      }, 'Payouts'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/payouts.csv',
      ownerPage(({ program }) => payoutsCsv(deps, program), 'Payouts'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/payouts',
      ownerPost(async ({ program, form }) => {
        const value = (form.until ?? '').trim()
        // A date pays what is due by the end of that day (UTC).
        const until =
          value === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? Date.parse(value) + DAY_MS - 1 : NaN
        if (Number.isNaN(until)) return back(program, '/payouts', 'until_invalid', 'error')
        const created = await runPayouts(deps, program, until)
        return back(program, '/payouts', created > 0 ? 'payouts_run' : 'payouts_none')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/payouts/:payout_id/paid',
      ownerPost(async ({ program, form, params }) => {
        const payoutId = positiveId(params.payout_id)
        const reference = (form.reference ?? '').trim().slice(0, 500) || null
        const change =
          payoutId === null
            ? null
            : await writer.run(() =>
                store.payoutProgram(payoutId) === program.id ? stores.payouts.markPaid(payoutId, reference, now()) : null,
              )
        if (!change || change.kind === 'not_found') return back(program, '/payouts', 'payout_missing', 'error')
        return back(program, '/payouts', change.kind === 'ok' ? 'payout_paid' : 'payout_conflict', change.kind === 'ok' ? 'done' : 'error')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/payouts/:payout_id/cancel',
      ownerPost(async ({ program, params }) => {
        const payoutId = positiveId(params.payout_id)
        const change =
          payoutId === null
            ? null
            : await writer.run(() => (store.payoutProgram(payoutId) === program.id ? stores.payouts.cancel(payoutId, now()) : null))
        if (!change || change.kind === 'not_found') return back(program, '/payouts', 'payout_missing', 'error')
        return back(
          program,
          '/payouts',
          change.kind === 'ok' ? 'payout_canceled' : 'payout_conflict',
          change.kind === 'ok' ? 'done' : 'error',
        )
      }),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/settings',
      ownerPage(
        ({ program, signed, query }) =>
          html`${owner.notice(query)}${owner.settingsPage(program, {
            key: store.currentApiKey(program.id),
            baseUrl,
            csrf: signed.csrf,
          })}`,
        'Settings',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings',
      ownerPost(async ({ program, form }) => {
        const domain = normalizeDomain(form.domain ?? '')
        const rate = Number(form.commission_rate)
        const windowDays = Number(form.attribution_window_days)
        const name = (form.name ?? '').trim()
        const types = ['percent', 'fixed', 'recurring_percent', 'recurring_fixed'] as const
        const type = types.find((t) => t === form.commission_type)
        const leadAuth = (['server_required', 'browser_allowed'] as const).find((l) => l === form.lead_auth)
        const holdingPeriodDays = Number(form.holding_period_days)
        const minimumPayout = Number(form.minimum_payout)
        if (
          !domain ||
          !name ||
          name.length > 200 ||
          !type ||
          !leadAuth ||
          !rateFits(type, rate) ||
          !Number.isInteger(windowDays) ||
          windowDays < 1 ||
          windowDays > 3650 ||
          !Number.isInteger(holdingPeriodDays) ||
          holdingPeriodDays < 0 ||
          holdingPeriodDays > 365 ||
          !(minimumPayout >= 0 && minimumPayout <= 1e9)
        ) {
          return back(program, '/settings', 'settings_invalid', 'error')
        }
        await writer.run(() =>
          store.updateProgram(program.id, {
            name,
            domain,
            commissionType: type,
            commissionRate: rate,
            attributionWindowDays: windowDays,
            leadAuth,
            holdingPeriodDays,
            minimumPayout,
          }),
        )
        return back(program, '/settings', 'settings_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/origins',
      ownerPost(async ({ program, form }) => {
        const lines = (form.allowed_origins ?? '')
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean)
        const origins = lines.map(originOf)
        if (origins.length > 100 || origins.some((o) => o === null)) return back(program, '/settings', 'origins_invalid', 'error')
        await writer.run(() => store.updateProgram(program.id, { allowedOrigins: [...new Set(origins as string[])] }))
        return back(program, '/settings', 'origins_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/stripe',
      ownerPost(async ({ program, form }) => {
        const secret = (form.stripe_webhook_secret ?? '').trim()
        if (!/^whsec_\S{1,194}$/.test(secret)) return back(program, '/settings', 'stripe_invalid', 'error')
        await writer.run(() => store.updateProgram(program.id, { stripeWebhookSecrets: [secret] }))
        return back(program, '/settings', 'stripe_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/api-key',
      ownerPost(async ({ program, signed }) => {
        const newKey = await writer.run(() => store.regenerateApiKey(program.id, now()))
        // The old key must answer 401 at once: drop its in-memory copy.
        // Shown on this answer only (never after a redirect): the key is not kept anywhere.
        return page(
          { title: `Settings · ${program.name}`, who: whoOf(signed) },
          owner.settingsPage(program, { key: store.currentApiKey(program.id), baseUrl, csrf: signed.csrf, newKey }),
        )
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/api-key/rotation',
      ownerPost(async ({ program, form }) => {
        const value = form.rotate_by ?? ''
        const rotateBy = Date.parse(value)
        if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(value) || Number.isNaN(rotateBy)) return back(program, '/settings', 'rotation_invalid', 'error')
        const marked = await writer.run(() => store.markKeyRotation(program.id, now(), rotateBy))
        return back(program, '/settings', marked ? 'rotation_marked' : 'rotation_no_key', marked ? 'done' : 'error')
      }),
      { detail: { hide: true } },
    )
    .get(
      '/partner',
      ({ request, query }) => {
        const signed = signedIn(deps, request)
        if (signed?.session.kind !== 'partner') return seeOther('/sign-in')
        const { partnerId, programId } = signed.session as Extract<SessionOf, { kind: 'partner' }>
        const program = store.findProgramById(programId)
        const partner = store.findPartner(partnerId)
        if (!program || !partner) return notFound(signed)
        const figures = store.onePartnerFigures(programId, partnerId)
        const ledger = store.partnerCommissionsPage(partnerId, positiveId(query.cursor))
        const statuses = commissionStatuses(
          deps,
          programId,
          ledger.rows.map((r) => r.id),
        )
        return page(
          { title: 'Partner portal', who: whoOf(signed) },
          portalPage(program, partner, {
            links: store.partnerLinks(programId, partnerId),
            funnel: figures.funnel,
            money: figures.money,
            ledger,
            statusOf: (row) => (row.testMode ? 'test' : (statuses.get(row.id) ?? '')),
            payouts: portalPayouts(store.partnerPayouts(programId, partnerId)),
          }),
        )
      },
      { detail: { hide: true } },
    )
    .get('/dashboard/*', ({ request }) => notFound(signedIn(deps, request) ?? undefined), { detail: { hide: true } })
    .get('/partner/*', ({ request }) => notFound(signedIn(deps, request) ?? undefined), { detail: { hide: true } })
}

/** An exact http(s) origin ("https://shop.example", "http://localhost:3000"), or null. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value)
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '')) return url.origin
  } catch {
    /* not a URL */
  }
  return null
}
