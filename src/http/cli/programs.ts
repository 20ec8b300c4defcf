import { Elysia, t } from 'elysia'
import type { Program } from '../../db/schema.ts'
import { COMMISSION_TYPES, rateFits } from '../../domain/commission.ts'
import { iso } from '../../domain/time.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { acceptedBody } from '../pipeline/body.ts'
import { quoteValue } from '../pipeline/quote.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { requireLoginToken } from './login-token.ts'
import { cli, money } from '../../domain/messages.ts'
import { siteOf } from '../../domain/site.ts'
import { bodyChecker } from '../pipeline/validate.ts'

const required = ['name', 'domain', 'commission_type', 'commission_rate'] as const

/** POST /api/v1/cli/init. A name or domain that is not a non-empty string counts as missing. */
export const InitBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 200, error: cli.initMissingFields }),
  domain: t.String({ minLength: 1, maxLength: 253, error: cli.initMissingFields, description: 'Host name, e.g. shop.example' }),
  commission_type: t.Union(
    COMMISSION_TYPES.map((v) => t.Literal(v)),
    { error: cli.initMissingFields },
  ),
  commission_rate: t.Number({
    exclusiveMinimum: 0,
    maximum: 1e9,
    error: cli.initCommissionRate,
    description: 'Percent for percent types, major currency units for fixed types',
  }),
  partner_signup: t.Optional(
    t.Union([t.Literal('off'), t.Literal('approval'), t.Literal('open')], {
      error: 'partner_signup must be off, approval or open',
      description: 'Whether partners may apply on /join/:program_id (default off)',
    }),
  ),
  advertiser_id: t.Optional(
    t.Integer({ minimum: 1, error: cli.initAdvertiserMismatch, description: "Must equal the account's own advertiser; best omitted" }),
  ),
})
const checkInit = bodyChecker(InitBody)

/**
 * The checks of docs/api.md's init rows that bodyChecker cannot make in their order and words:
 * advertiser_id (403) before the fields, a missing field before a wrong one, and the
 * commission_type message that repeats the value sent.
 */
function precheck(received: unknown, advertiserId: number): void {
  const body = acceptedBody(received)
  const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>
  const given = input.advertiser_id
  if (given !== undefined && given !== null && given !== advertiserId) throw new HttpError(403, cli.initAdvertiserMismatch)
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
  if (required.some((field) => blank(input[field]))) throw new HttpError(400, cli.initMissingFields)
  if (!(COMMISSION_TYPES as readonly unknown[]).includes(input.commission_type)) {
    throw new HttpError(400, cli.initCommissionType(quoteValue(input.commission_type)))
  }
}

/** A program as the CLI lists it: no key, no processor secrets. */
function presentProgram(p: Program) {
  return {
    program_id: p.id,
    advertiser_id: p.advertiserId,
    name: p.name,
    domain: p.domain,
    commission_type: p.commissionType,
    commission_rate: p.commissionRate,
    lead_auth: p.leadAuth,
    attribution_window_days: p.attributionWindowDays,
    partner_signup: p.partnerSignup,
    fraud_review: p.fraudReview,
    created_at: iso(p.createdAt),
  }
}

/** POST /api/v1/cli/init and GET /api/v1/cli/programs: an account's programs, by login token. */
export function cliProgramRoutes(deps: Deps) {
  const { writer, stores } = deps.database

  return new Elysia({ name: 'cli-programs' })
    .post(
      '/api/v1/cli/init',
      async ({ request, body }) => {
        const account = requireLoginToken(deps, request, 'init')
        const advertiser = stores.accounts.findAdvertiser(account.id)
        if (!advertiser) throw new HttpError(403, cli.initNoAdvertiser)
        precheck(body, advertiser.id)
        const input = checkInit(body)
        if (!rateFits(input.commission_type, input.commission_rate)) throw new HttpError(400, money.percentRate)
        const site = siteOf(input.domain)
        if (!site) throw new HttpError(400, cli.initDomain)
        // The new domain is a browser origin the CORS preflight knows at once (the store drops the catalog's copy).
        const created = await writer.run(() =>
          stores.programs.createProgram({
            advertiserId: advertiser.id,
            name: input.name.trim(),
            ...site,
            commissionType: input.commission_type,
            commissionRate: input.commission_rate,
            partnerSignup: input.partner_signup,
            createdAt: deps.clock.now(),
          }),
        )
        return ok({ program_id: created.programId, api_key: created.apiKey })
      },
      {
        detail: doc("Create a program for the account's advertiser", 'cli', {
          body: InitBody,
          security: 'loginToken',
          description: 'Answers 200 with data.program_id and data.api_key (shown once). After a 500, list programs before retrying.',
        }),
      },
    )

    .get(
      '/api/v1/cli/programs',
      ({ request }) => {
        const account = requireLoginToken(deps, request, 'programs')
        const advertiser = stores.accounts.findAdvertiser(account.id)
        return ok(advertiser ? stores.programs.programsOfAdvertiser(advertiser.id).map(presentProgram) : [])
      },
      {
        detail: doc("List the account's programs, oldest first", 'cli', {
          security: 'loginToken',
          description:
            'data is an array of { program_id, advertiser_id, name, domain, commission_type, commission_rate, lead_auth, attribution_window_days, partner_signup, fraud_review, created_at }.',
        }),
      },
    )
}
