import { FRAUD_REVIEWS } from '../../domain/fraud.ts'
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { readinessChecks } from '../../domain/readiness.ts'
import type { ProgramStore } from '../../db/program-store.ts'
import { PARTNER_SIGNUPS, type Program } from '../../db/schema.ts'
import { type Form, forbidden, pageKit, positiveId, whoOf } from './guard.ts'
import { controlCharAt } from '../../domain/email.ts'
import { readProgramForm } from './program-form.ts'
import { commissionStatusTotals } from './payouts.ts'
import { dayLabel } from './format.ts'
import { groupCharts } from './group-pages.ts'
import { html } from './html.ts'
import { page, seeOther } from './layout.ts'
import * as owner from './owner-pages.ts'
import { type MailState, settingsPage } from './settings-page.ts'
import { sameSitePost, signedIn } from './session.ts'

/** The owner's programs: the list, a program's overview and its settings. */
export function programRoutes(deps: Deps) {
  const { writer, stores, store, now, baseUrl, ownerPage, ownerPost, back } = pageKit(deps)
  /** The Settings page's keys: the manage key and the track keys. */
  const keysOf = (programId: number) => ({ key: store.currentApiKey(programId), trackKeys: store.trackKeys(programId) })
  return new Elysia({ name: 'programs' })
    .get(
      '/dashboard',
      ({ request, query }) => {
        const signed = signedIn(deps, request)
        if (signed?.session.kind !== 'account') return seeOther('/sign-in')
        const list = store.accountPrograms(signed.session.accountId).map((program) => ({
          program,
          funnel: stores.figures.programFunnel(program.id),
          money: stores.figures.programMoney(program.id),
        }))
        const problem = query.error ? { field: query.error, message: newProgramErrors[query.error] ?? '' } : null
        return page({ title: 'Programs', who: whoOf(signed) }, owner.programsPage(list, signed.csrf, problem))
      },
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs',
      async ({ request, body }) => {
        const form = (body ?? {}) as Form
        const signed = signedIn(deps, request)
        if (signed?.session.kind !== 'account') return seeOther('/sign-in')
        if (!sameSitePost(deps, request, signed, form)) return forbidden(baseUrl)
        const read = readProgramForm(form)
        if (!read.ok) return seeOther(`/dashboard?error=${read.field}#new-program`)
        const accountId = signed.session.accountId
        const created = await writer.run(() => {
          const advertiser = stores.accounts.findAdvertiser(accountId)
          return advertiser ? stores.programs.createProgram({ advertiserId: advertiser.id, createdAt: now(), ...read.value }) : null
        })
        if (!created) return seeOther('/dashboard?error=account#new-program')
        const program = store.findOwnedProgram(accountId, created.programId)!
        // The key is shown on this answer only: it is kept nowhere but as a hash.
        return page(
          { title: `Settings · ${program.name}`, who: whoOf(signed) },
          html`<p class="note" role="status">Program created.</p>${settingsPage(program, { ...keysOf(program.id), baseUrl, csrf: signed.csrf, newKey: created.apiKey })}`,
        )
      },
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id',
      ownerPage(({ program, query }) => {
        const span = query.days === '90' ? 90 : 30
        const key = store.currentApiKey(program.id)
        const facts = stores.figures.dashboardReadinessFacts(program.id)
        const checks = key
          ? readinessChecks(program, key, facts)
          : [{ id: 'api_key', ok: false, message: 'The program has no active API key.' }]
        const days = stores.figures.programDays(program.id, now(), span)
        return owner.overviewPage(program, {
          funnel: stores.figures.programFunnel(program.id),
          test: stores.figures.programFunnel(program.id, true),
          money: stores.figures.programMoney(program.id),
          held: heldByCurrency(deps, program),
          days,
          span,
          checks,
          groupCharts: groupCharts(
            {
              names: new Map(stores.groups.list(program.id).map((g) => [g.id, g.name])),
              days: stores.figures.groupDays(program.id, now(), span),
            },
            days.map((d) => dayLabel(d.day)),
            span,
            `/dashboard/programs/${program.id}`,
          ),
        })
      }, 'Overview'),
      { detail: { hide: true } },
    )
    .get(
      '/dashboard/programs/:id/settings',
      ownerPage(
        ({ program, signed, query }) =>
          html`${owner.notice(query)}${settingsPage(program, {
            ...keysOf(program.id),
            baseUrl,
            csrf: signed.csrf,
            mail: mailState(deps, program.id),
          })}`,
        'Settings',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings',
      ownerPost(async ({ program, form }) => {
        const read = readSettings(form)
        // The notice names the field that was refused (settings_<field>).
        if ('refused' in read) return back(program, '/settings', `settings_${read.refused}`, 'error')
        await writer.run(() => store.updateProgram(program.id, read.settings))
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
          settingsPage(program, { ...keysOf(program.id), baseUrl, csrf: signed.csrf, newKey }),
        )
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/keys',
      ownerPost(async ({ program, signed, form }) => {
        const name = (form.name ?? '').trim()
        if (name.length > 100 || controlCharAt(name) >= 0) return back(program, '/settings', 'track_key_name', 'error')
        const made = await writer.run(() => stores.programs.issueTrackKey(program.id, name || null, now()))
        // Shown on this answer only, as a new manage key is.
        return page(
          { title: `Settings · ${program.name}`, who: whoOf(signed) },
          settingsPage(program, { ...keysOf(program.id), baseUrl, csrf: signed.csrf, newTrackKey: made.apiKey }),
        )
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/keys/:key_id/delete',
      ownerPost(async ({ program, params }) => {
        const keyId = positiveId(params.key_id)
        const deleted = await writer.run(() => {
          const key = keyId === null ? null : stores.programs.unrevokedKey(keyId)
          if (key?.programId !== program.id || key.scope !== 'track') return false
          stores.programs.revokeKey(key.id, now())
          return true
        })
        return back(program, '/settings', deleted ? 'track_key_deleted' : 'track_key_missing', deleted ? 'done' : 'error')
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

/** A program's commissions held for review, per currency (the Payouts page's balances, added up). */
function heldByCurrency(deps: Deps, program: Program): Map<string, number> {
  const held = new Map<string, number>()
  for (const totals of commissionStatusTotals(deps, program).values())
    for (const t of totals) held.set(t.currency, (held.get(t.currency) ?? 0) + t.heldCents)
  return held
}

const number = (text: string | undefined) => (text === undefined || text.trim() === '' ? Number.NaN : Number(text))

/** The settings form's fields, or the first refused one's name. */
function readSettings(form: Form): { settings: Parameters<ProgramStore['updateProgram']>[1] } | { refused: string } {
  const program = readProgramForm(form)
  if (!program.ok) return { refused: program.field }
  const windowDays = number(form.attribution_window_days)
  if (!Number.isInteger(windowDays) || windowDays < 1 || windowDays > 3650) return { refused: 'attribution_window_days' }
  const holdingPeriodDays = number(form.holding_period_days)
  if (!Number.isInteger(holdingPeriodDays) || holdingPeriodDays < 0 || holdingPeriodDays > 365) return { refused: 'holding_period_days' }
  const minimumPayout = number(form.minimum_payout)
  if (!(minimumPayout >= 0 && minimumPayout <= 1e12)) return { refused: 'minimum_payout' }
  const months = (form.recurring_months ?? '').trim() === '' ? null : number(form.recurring_months)
  if (months !== null && !(Number.isInteger(months) && months >= 1 && months <= 1200)) return { refused: 'recurring_months' }
  const leadAuth = (['server_required', 'browser_allowed'] as const).find((l) => l === form.lead_auth)
  if (!leadAuth) return { refused: 'lead_auth' }
  const partnerSignup = PARTNER_SIGNUPS.find((v) => v === (form.partner_signup ?? 'off'))
  if (!partnerSignup) return { refused: 'partner_signup' }
  // An older form without the field keeps the program's mode.
  const fraudReview = form.fraud_review === undefined ? undefined : FRAUD_REVIEWS.find((v) => v === form.fraud_review)
  if (form.fraud_review !== undefined && !fraudReview) return { refused: 'fraud_review' }
  return {
    settings: {
      ...program.value,
      attributionWindowDays: windowDays,
      holdingPeriodDays,
      minimumPayout,
      recurringMonths: months,
      leadAuth,
      partnerSignup,
      fraudReview,
    },
  }
}

/** The Settings page's Email panel: the SMTP server without its credentials, and the program's failures. */
function mailState(deps: Deps, programId: number): MailState {
  const url = deps.config.smtpUrl === null ? null : new URL(deps.config.smtpUrl)
  return {
    server: url ? `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}` : null,
    from: deps.config.mailFrom,
    problems: deps.database.stores.emails.problems(programId, 5),
  }
}

/** Why the New program form was refused, by field. */
const newProgramErrors: Record<string, string> = {
  name: 'The name must be 1 to 200 characters.',
  domain: "The domain must be a host name such as shop.example, or your site's URL such as http://localhost:3901.",
  commission_type: 'Choose a commission type from the list.',
  commission_rate: 'The commission rate must be a positive number, at most 100 for the percent types.',
  account: 'This account has no advertiser profile: ask the operator.',
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
