import { noBody } from '../pipeline/body.ts'
import { Elysia } from 'elysia'
import { rateFits } from '../../domain/commission.ts'
import { currencyList, minimumPayoutList } from '../../domain/currency.ts'
import { currency, money } from '../../domain/messages.ts'
import { iso } from '../../domain/time.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { siteOf } from '../../domain/site.ts'
import { bodyChecker } from '../pipeline/validate.ts'
import { changesOf } from '../../tracking/audit.ts'
import { idParam, operatorActor, requireAdmin } from './guard.ts'
import { presentProgram } from './present.ts'
import { CreateProgram, Rotation, UpdateProgram } from './schemas.ts'

const checkCreate = bodyChecker(CreateProgram)
const checkUpdate = bodyChecker(UpdateProgram)
const checkRotation = bodyChecker(Rotation)

/** The program's domain and site_url from `domain` as given: a host, or a URL with scheme and port. */
function domainOf(input: string): { domain: string; siteUrl: string } {
  const site = siteOf(input)
  if (!site) throw new HttpError(400, 'domain must be a host name such as shop.example, or a URL such as http://localhost:3901')
  return site
}

/** currencies and minimum_payouts as given, normalized, or the 400 that names the field. */
function currencyFields(input: { currencies?: string[]; minimum_payouts?: Record<string, number> }) {
  const currencies = input.currencies === undefined ? undefined : currencyList(input.currencies)
  if (currencies === null) throw new HttpError(400, currency.list)
  const minimumPayouts = input.minimum_payouts === undefined ? undefined : minimumPayoutList(input.minimum_payouts)
  if (minimumPayouts === null) throw new HttpError(400, currency.minimumPayouts)
  return { currencies, minimumPayouts }
}

function originsOf(input: string[]): string[] {
  return input.map((value) => {
    try {
      const url = new URL(value)
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '')) return url.origin
    } catch {
      /* answered below */
    }
    throw new HttpError(400, 'allowed_origins must be an array of origins such as https://shop.example')
  })
}

/** The operator API's program routes (docs/decisions.md, Operator API). */
export function programAdminRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const { programs } = stores
  const now = () => deps.clock.now()

  const findProgram = (id: number) => {
    const program = programs.findProgram(id)
    if (!program) throw new HttpError(404, 'Program not found')
    return program
  }
  const currentKey = (programId: number) => programs.currentKey(programId)

  return (
    new Elysia({ name: 'admin-programs' })
      .onBeforeHandle(({ request }) => requireAdmin(deps, request))
      .post(
        '/api/v1/admin/programs',
        async ({ body, set }) => {
          const input = checkCreate(body)
          if (!rateFits(input.commission_type, input.commission_rate)) throw new HttpError(400, money.percentRate)
          const site = domainOf(input.domain)
          const origins = originsOf(input.allowed_origins ?? [])
          const currencies = currencyFields(input)
          const created = await writer.run(() => {
            const advertiser = stores.accounts.findAdvertiser(input.account_id)
            if (!advertiser) throw new HttpError(400, 'account_id must be the id of an existing account')
            return programs.createProgram({
              advertiserId: advertiser.id,
              name: input.name,
              ...site,
              commissionType: input.commission_type,
              commissionRate: input.commission_rate,
              leadAuth: input.lead_auth,
              attributionWindowDays: input.attribution_window_days,
              allowedOrigins: origins,
              livemode: input.livemode,
              createdAt: now(),
              holdingPeriodDays: input.holding_period_days,
              minimumPayout: input.minimum_payout,
              ...currencies,
              recurringMonths: input.recurring_months,
              partnerSignup: input.partner_signup,
              fraudReview: input.fraud_review,
            })
          })
          set.status = 201
          return ok({ program_id: created.programId, api_key: created.apiKey })
        },
        { detail: doc('Create a program; answers its API key once', 'operator', { security: 'adminToken', body: CreateProgram }) },
      )
      .get(
        '/api/v1/admin/programs',
        () => {
          return ok(programs.listPrograms().map((p) => presentProgram(p, currentKey(p.id))))
        },
        { detail: doc('List programs, newest first', 'operator', { security: 'adminToken' }) },
      )
      // docs/decisions.md lists GET /programs/:id among the read routes that answer `data` as a list:
      // a list of the one program, with the same next_cursor as the others (always null).
      .get(
        '/api/v1/admin/programs/:id',
        ({ params }) => {
          const program = findProgram(idParam(params.id, 'Program'))
          return { data: [presentProgram(program, currentKey(program.id))], error: null, next_cursor: null }
        },
        {
          detail: doc('Show a program (API key masked), as a list of one like the other read routes', 'operator', {
            security: 'adminToken',
          }),
        },
      )
      .patch(
        '/api/v1/admin/programs/:id',
        async ({ request, params, body }) => {
          const id = idParam(params.id, 'Program')
          const input = checkUpdate(body)
          const secrets = input.stripe_webhook_secret
          const changes = {
            name: input.name,
            commissionType: input.commission_type,
            commissionRate: input.commission_rate,
            leadAuth: input.lead_auth,
            attributionWindowDays: input.attribution_window_days,
            livemode: input.livemode,
            ...(input.domain === undefined ? {} : domainOf(input.domain)),
            allowedOrigins: input.allowed_origins === undefined ? undefined : originsOf(input.allowed_origins),
            stripeAccountId: input.stripe_account_id,
            holdingPeriodDays: input.holding_period_days,
            minimumPayout: input.minimum_payout,
            ...currencyFields(input),
            recurringMonths: input.recurring_months,
            partnerSignup: input.partner_signup,
            fraudReview: input.fraud_review,
            paddleWebhookSecret: input.paddle_webhook_secret,
            lemonsqueezyWebhookSecret: input.lemonsqueezy_webhook_secret,
            polarWebhookSecret: input.polar_webhook_secret,
            stripeWebhookSecrets: secrets === undefined ? undefined : Array.isArray(secrets) ? secrets : [secrets],
          }
          const program = await writer.run(() => {
            // The rate is judged with the type it will have: a PATCH may change either alone.
            const current = programs.findProgram(id)
            const type = changes.commissionType ?? current?.commissionType
            const rate = changes.commissionRate ?? current?.commissionRate
            if (current && type !== undefined && rate !== undefined && !rateFits(type, rate)) throw new HttpError(400, money.percentRate)
            const updated = programs.updateProgram(id, changes)
            if (current && updated && !('kind' in updated)) {
              // Signing secrets are never written to the log: only that they were replaced.
              const { stripeWebhookSecrets, paddleWebhookSecret, lemonsqueezyWebhookSecret, polarWebhookSecret, ...shown } = changes
              const replaced = Object.entries({
                stripe_webhook_secret: stripeWebhookSecrets,
                paddle_webhook_secret: paddleWebhookSecret,
                lemonsqueezy_webhook_secret: lemonsqueezyWebhookSecret,
                polar_webhook_secret: polarWebhookSecret,
              }).filter(([, value]) => value !== undefined)
              const details = { ...changesOf(current, shown), ...Object.fromEntries(replaced.map(([name]) => [name, 'replaced'])) }
              stores.audit.write(operatorActor(request), now(), {
                program: id,
                action: 'settings.update',
                object: ['program', id],
                details,
              })
            }
            return updated
          })
          if (!program) throw new HttpError(404, 'Program not found')
          if ('kind' in program) throw new HttpError(409, 'stripe_account_id is already connected to another program')
          return ok(presentProgram(program, currentKey(id)))
        },
        { detail: doc('Change a program', 'operator', { security: 'adminToken', body: UpdateProgram }) },
      )
      .post(
        '/api/v1/admin/programs/:id/api-key',
        async ({ request, params, body }) => {
          noBody(body)
          const id = idParam(params.id, 'Program')
          // The old key answers 401 at once: the store drops the catalog's copy of it.
          const apiKey = await writer.run(() => {
            findProgram(id)
            const issued = programs.issueKey(id, now())
            stores.audit.write(operatorActor(request), now(), {
              program: id,
              action: 'key.regenerate',
              object: ['program', id],
              details: { scope: 'manage' },
            })
            return issued
          })
          return ok({ program_id: id, api_key: apiKey })
        },
        { detail: doc('Regenerate the API key; the old key answers 401 at once', 'operator', { security: 'adminToken' }) },
      )
      .post(
        '/api/v1/admin/programs/:id/api-key/rotation',
        async ({ request, params, body }) => {
          const id = idParam(params.id, 'Program')
          const { rotate_by } = checkRotation(body)
          // An ISO 8601 date or date-time. A time already past retires the key at once (the
          // operator's "stop this key now", and how a deployment checks its clients' 401 handling).
          const rotateBy = Date.parse(rotate_by)
          if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(rotate_by) || Number.isNaN(rotateBy)) {
            throw new HttpError(400, 'rotate_by must be an ISO 8601 date or time')
          }
          const key = await writer.run(() => {
            findProgram(id)
            const marked = programs.markRotation(id, now(), rotateBy)
            if (!marked) throw new HttpError(404, 'Program has no active API key')
            const details = { rotate_by: iso(rotateBy) }
            stores.audit.write(operatorActor(request), now(), { program: id, action: 'key.rotation', object: ['program', id], details })
            return marked
          })
          return ok({ program_id: id, marked_at: iso(key.rotationMarkedAt!), rotate_by: iso(rotateBy) })
        },
        { detail: doc('Mark the current key for mandatory rotation', 'operator', { security: 'adminToken', body: Rotation }) },
      )
  )
}
