import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { rateFits } from '../../domain/commission.ts'
import { readinessChecks } from '../../domain/readiness.ts'
import { normalizeDomain } from '../pipeline/origin.ts'
import { pageKit, whoOf } from './guard.ts'
import { html } from './html.ts'
import { page, seeOther } from './layout.ts'
import * as owner from './owner-pages.ts'
import { signedIn } from './session.ts'

/** The owner's programs: the list, a program's overview and its settings. */
export function programRoutes(deps: Deps) {
  const { writer, store, now, baseUrl, ownerPage, ownerPost, back } = pageKit(deps)
  return new Elysia({ name: 'programs' })
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
