import { changesOf } from '../../tracking/audit.ts'
import { currencyList, minimumPayoutList } from '../../domain/currency.ts'
import { FRAUD_REVIEWS } from '../../domain/fraud.ts'
import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { readinessChecks } from '../../domain/readiness.ts'
import type { ProgramStore } from '../../db/program-store.ts'
import { PARTNER_SIGNUPS, type Program } from '../../db/schema.ts'
import { type Form, pageKit, positiveId, whoOf } from './guard.ts'
import { controlCharAt } from '../../domain/email.ts'
import { readProgramForm } from './program-form.ts'
import { commissionStatusTotals } from './payouts.ts'
import { dayLabel } from './format.ts'
import { groupCharts } from './group-pages.ts'
import { html } from './html.ts'
import { page, seeOther } from './layout.ts'
import * as owner from './owner-pages.ts'
import { type MailState, type SettingsDraft, settingsPage } from './settings-page.ts'

/** The Settings form's processor names and the program field each one's secret is kept in (write-only). */
const PROCESSOR_SECRET_FIELDS = {
  paddle: 'paddleWebhookSecret',
  lemonsqueezy: 'lemonsqueezyWebhookSecret',
  polar: 'polarWebhookSecret',
} as const

/** The owner's programs: the list, a program's overview and its settings. */
export function programRoutes(deps: Deps) {
  const { writer, stores, store, now, baseUrl, ownerPage, ownerPost, accountPage, accountPost, back } = pageKit(deps)
  const { audit } = stores
  /** The Settings page's keys: the manage key and the track keys. */
  const keysOf = (programId: number) => ({ key: store.currentApiKey(programId), trackKeys: store.trackKeys(programId) })
  /** The Settings page as GET shows it; with a draft, the Program form keeps what was typed and says why it was refused. */
  const settingsView = (program: Program, csrf: string, draft?: SettingsDraft, made: { newKey?: string; newTrackKey?: string } = {}) =>
    settingsPage(program, { ...keysOf(program.id), baseUrl, csrf, mail: mailState(deps, program.id), draft, ...made })
  return new Elysia({ name: 'programs' })
    .get(
      '/dashboard',
      accountPage(({ signed, accountId, query }) => {
        const list = store.accountPrograms(accountId).map((program) => ({
          program,
          funnel: stores.figures.programFunnel(program.id),
          money: stores.figures.programMoney(program.id),
        }))
        const problem = query.error ? { field: query.error, message: newProgramErrors[query.error] ?? '' } : null
        return owner.programsPage(list, signed.csrf, problem)
      }, 'Programs'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs',
      accountPost(async ({ signed, accountId, form }) => {
        const read = readProgramForm(form)
        if (!read.ok) return seeOther(`/dashboard?error=${read.field}#new-program`)
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
      }),
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
      ownerPage(({ program, signed, query }) => html`${owner.notice(query)}${settingsView(program, signed.csrf)}`, 'Settings'),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings',
      ownerPost(async ({ by, program, form, signed, show }) => {
        const read = readSettings(form)
        // Refused: the page again with what was typed, and why (settings_<field> names the field), as the webhook form does.
        if ('refused' in read) {
          const draft = { form, field: read.refused, problem: owner.notices[`settings_${read.refused}`] ?? '' }
          return show('Settings', (counted) => settingsView(counted, signed.csrf, draft), 400)
        }
        await writer.run(() => {
          store.updateProgram(program.id, read.settings)
          audit.write(by, now(), {
            program: program.id,
            action: 'settings.update',
            object: ['program', program.id],
            details: changesOf(program, read.settings),
          })
        })
        return back(program, '/settings', 'settings_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/origins',
      ownerPost(async ({ by, program, form }) => {
        const lines = (form.allowed_origins ?? '')
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean)
        const origins = lines.map(originOf)
        if (origins.length > 100 || origins.some((o) => o === null)) return back(program, '/settings', 'origins_invalid', 'error')
        const allowedOrigins = [...new Set(origins as string[])]
        await writer.run(() => {
          store.updateProgram(program.id, { allowedOrigins })
          const details = changesOf(program, { allowedOrigins })
          audit.write(by, now(), { program: program.id, action: 'settings.update', object: ['program', program.id], details })
        })
        return back(program, '/settings', 'origins_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/stripe',
      ownerPost(async ({ by, program, form }) => {
        const secret = (form.stripe_webhook_secret ?? '').trim()
        if (!/^whsec_\S{1,194}$/.test(secret)) return back(program, '/settings', 'stripe_invalid', 'error')
        await writer.run(() => {
          store.updateProgram(program.id, { stripeWebhookSecrets: [secret] })
          // The secret itself is never written to the log: only that it was replaced.
          const details = { stripe_webhook_secret: 'replaced' }
          audit.write(by, now(), { program: program.id, action: 'settings.update', object: ['program', program.id], details })
        })
        return back(program, '/settings', 'stripe_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/processor',
      ownerPost(async ({ by, program, form }) => {
        const secret = (form.secret ?? '').trim()
        const field = PROCESSOR_SECRET_FIELDS[form.processor as keyof typeof PROCESSOR_SECRET_FIELDS]
        if (!field || secret.length === 0 || secret.length > 200 || /\s/.test(secret))
          return back(program, '/settings', 'processor_invalid', 'error')
        await writer.run(() => {
          store.updateProgram(program.id, { [field]: secret })
          // The secret itself is never written to the log: only that it was replaced.
          const details = { [`${form.processor}_webhook_secret`]: 'replaced' }
          audit.write(by, now(), { program: program.id, action: 'settings.update', object: ['program', program.id], details })
        })
        return back(program, '/settings', 'processor_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/api-key',
      ownerPost(async ({ by, program, signed, show }) => {
        const newKey = await writer.run(() => {
          const key = store.regenerateApiKey(program.id, now())
          audit.write(by, now(), {
            program: program.id,
            action: 'key.regenerate',
            object: ['program', program.id],
            details: { scope: 'manage' },
          })
          return key
        })
        // The old key must answer 401 at once: drop its in-memory copy.
        // Shown on this answer only (never after a redirect): the key is not kept anywhere.
        return show('Settings', (counted) => settingsView(counted, signed.csrf, undefined, { newKey }))
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/keys',
      ownerPost(async ({ by, program, signed, form, show }) => {
        const name = (form.name ?? '').trim()
        if (name.length > 100 || controlCharAt(name) >= 0) return back(program, '/settings', 'track_key_name', 'error')
        const made = await writer.run(() => {
          const issued = stores.programs.issueTrackKey(program.id, name || null, now())
          const details = { scope: 'track', name: issued.key.name }
          audit.write(by, now(), { program: program.id, action: 'key.create', object: ['key', issued.key.id], details })
          return issued
        })
        // Shown on this answer only, as a new manage key is.
        return show('Settings', (counted) => settingsView(counted, signed.csrf, undefined, { newTrackKey: made.apiKey }))
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/keys/:key_id/delete',
      ownerPost(async ({ by, program, params }) => {
        const keyId = positiveId(params.key_id)
        const deleted = await writer.run(() => {
          const key = keyId === null ? null : stores.programs.unrevokedKey(keyId)
          if (key?.programId !== program.id || key.scope !== 'track') return false
          stores.programs.revokeKey(key.id, now())
          audit.write(by, now(), {
            program: program.id,
            action: 'key.delete',
            object: ['key', key.id],
            details: { scope: key.scope, name: key.name },
          })
          return true
        })
        return back(program, '/settings', deleted ? 'track_key_deleted' : 'track_key_missing', deleted ? 'done' : 'error')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/settings/api-key/rotation',
      ownerPost(async ({ by, program, form }) => {
        const value = form.rotate_by ?? ''
        const rotateBy = Date.parse(value)
        if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(value) || Number.isNaN(rotateBy)) return back(program, '/settings', 'rotation_invalid', 'error')
        const marked = await writer.run(() => {
          const done = store.markKeyRotation(program.id, now(), rotateBy)
          const details = { rotate_by: new Date(rotateBy).toISOString() }
          if (done) audit.write(by, now(), { program: program.id, action: 'key.rotation', object: ['program', program.id], details })
          return done
        })
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

/** "JPY 5000, GBP 20" (one pair a line or comma) as minimum_payouts; null when a pair is not a code and an amount. */
function minimumsOf(text: string): Record<string, number> | null {
  const pairs: Record<string, unknown> = {}
  for (const part of text
    .split(/[\n,;]+/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z]{3})\s*[:=]?\s*(\S+)$/.exec(part)
    if (!match) return null
    pairs[match[1]!] = number(match[2])
  }
  return minimumPayoutList(pairs)
}

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
  // An older form without the currency fields keeps the program's.
  const currencies = form.currencies === undefined ? undefined : currencyList(form.currencies.split(/[\s,]+/).filter(Boolean))
  if (currencies === null) return { refused: 'currencies' }
  const minimumPayouts = form.minimum_payouts === undefined ? undefined : minimumsOf(form.minimum_payouts)
  if (minimumPayouts === null) return { refused: 'minimum_payouts' }
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
      currencies,
      minimumPayouts,
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
