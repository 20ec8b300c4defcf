import { Elysia, t } from 'elysia'
import type { Program } from '../../db/schema.ts'
import { CHAIN_WINDOW_MS, decideChain } from '../../domain/cli-session.ts'
import { requireManageKey } from '../pipeline/auth.ts'
import { testClick, testLead, testSale, type StepContext } from './test-steps.ts'
import type { Deps } from '../deps.ts'
import { doc } from '../pipeline/doc.ts'
import { acceptedBody } from '../pipeline/body.ts'
import { quoteValue } from '../pipeline/quote.ts'
import { HttpError, ok } from '../pipeline/envelope.ts'
import { cli, shared } from '../../domain/messages.ts'
import { stateOf } from '../pipeline/request-state.ts'
import { partnerCreated } from '../../tracking/partner-status.ts'

const eventTypes = ['click', 'lead', 'sale'] as const
type EventType = (typeof eventTypes)[number]

/**
 * POST /api/v1/cli/test-event. Documentation only: the handler reads the two modes itself,
 * because the 400 repeats the event_type sent, which a schema's fixed message cannot.
 */
export const TestEventBody = t.Object({
  event_type: t.Optional(
    t.Union(
      eventTypes.map((v) => t.Literal(v)),
      { description: 'Single-event mode' },
    ),
  ),
  type: t.Optional(t.Literal('chain', { description: 'Full synthetic chain click → lead → sale → commission (wins over event_type)' })),
})

type Step = { step: string; ok: boolean } & Record<string, unknown>

/**
 * The 500 of a chain that could not finish; the outcome of every step up to the failing one
 * goes to the error log line under the request id. The request id ends the message as it does
 * in every CLI 500 (the route table's `failure`); it is built here because the route's default
 * 500 is the single-event message.
 */
function chainFailure(deps: Deps, request: Request, steps: Step[], error: unknown): HttpError {
  const id = stateOf(request).id
  deps.log({ level: 'error', request_id: id, path: '/api/v1/cli/test-event', steps, error: String((error as Error)?.stack ?? error) })
  // docs/errors.md: details holds request_id only on a CLI 500; the steps that ran are in the log line.
  return new HttpError(500, `${cli.chainFailed} (request_id: ${id})`, { details: { request_id: id } })
}

/** docs/api.md, Limits: the typed 429 of the chain cap, with its own retry_after_seconds (and Retry-After). */
const chainCapped = (seconds: number) =>
  new HttpError(429, shared.chainCap, {
    typed: true,
    code: 'rate_limited',
    extra: { status: 429, retry_after_seconds: seconds },
    headers: { 'Retry-After': String(seconds) },
  })

/** One test-mode event; lead and sale start from a fresh test click, as a real visitor would. */
async function single(ctx: StepContext, eventType: EventType) {
  const click = await testClick(ctx)
  if (eventType === 'click') return click
  if (eventType === 'lead') return { click_id: click.click_id, ...(await testLead(ctx, click.click_id)) }
  return { click_id: click.click_id, ...(await testSale(ctx, { clickId: click.click_id })) }
}

/** POST /api/v1/cli/test-event: synthetic test-mode events through the tracking paths (issue 4). */
export function cliTestEventRoutes(deps: Deps) {
  const { writer, stores } = deps.database
  const now = () => deps.clock.now()
  /** The test partner and link, inside the caller's unit; a partner made here is a new partner (`partner.created`). */
  const prepareFixture = (programId: number, at: number) => {
    const fixture = stores.cli.prepareFixture(programId, at)
    if (fixture.created) partnerCreated(deps, programId, fixture.partnerId)
    return fixture
  }

  /**
   * The chain: the fixture is prepared, then the cap checked and the run counted, in one unit
   * that returns its verdict instead of throwing, so that a refused chain still keeps the
   * refreshed fixture (docs/api.md, Limits). Then click → lead → sale → commission, each step reported.
   */
  async function chain(request: Request, program: Program) {
    const gate = await writer
      .run(() => {
        const at = now()
        const fixture = prepareFixture(program.id, at)
        const decision = decideChain(stores.cli.recentChainRuns(program.id, at, CHAIN_WINDOW_MS), at)
        if (decision.ok) stores.cli.recordChainRun(program.id, at, CHAIN_WINDOW_MS)
        return { fixture, decision }
      })
      .catch((error) => {
        throw chainFailure(deps, request, [], error)
      })
    if (!gate.decision.ok) throw chainCapped(gate.decision.retryAfterSeconds)
    const ctx: StepContext = { deps, request, program, fixture: gate.fixture }
    const steps: Step[] = []
    const step = async <T extends object>(name: string, run: () => Promise<T>): Promise<T> => {
      try {
        const result = await run()
        steps.push({ step: name, ok: true, ...result })
        return result
      } catch (error) {
        const refusal = error instanceof HttpError ? { status: error.status, message: error.message } : {}
        steps.push({ step: name, ok: false, ...refusal })
        throw chainFailure(deps, request, steps, error)
      }
    }
    const click = await step('click', () => testClick(ctx))
    const lead = await step('lead', () => testLead(ctx, click.click_id))
    // The sale step reports the sale; its commission is reported as a step of its own.
    let commission: Awaited<ReturnType<typeof testSale>>['commission'] = null
    await step('sale', async () => {
      const { commission: booked, ...sale } = await testSale(ctx, { customerKey: lead.customer_key })
      commission = booked
      return sale
    })
    await step('commission', async () => {
      if (!commission) throw new Error('the synthetic sale booked no commission')
      return commission
    })
    return { type: 'chain', test_mode: true, steps, chains_remaining: gate.decision.remaining }
  }

  return new Elysia({ name: 'cli-test-event' }).post(
    '/api/v1/cli/test-event',
    async ({ request, body }) => {
      const { program } = requireManageKey(deps, request)
      const parsed = acceptedBody(body)
      const input = (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {}) as Record<string, unknown>
      if (input.type === 'chain') return ok(await chain(request, program))
      const eventType = input.event_type
      if (!(eventTypes as readonly unknown[]).includes(eventType)) throw new HttpError(400, cli.testEventType(quoteValue(eventType)))
      const fixture = await writer.run(() => prepareFixture(program.id, now()))
      const result = await single({ deps, request, program, fixture }, eventType as EventType)
      return ok({ event_type: eventType, test_mode: true, ...result })
    },
    {
      detail: doc('Send a synthetic test-mode event or run the synthetic chain', 'cli', {
        body: TestEventBody,
        security: 'programKey',
        description:
          'Single event: data { event_type, test_mode: true, click_id, … the lead or sale answer }. Chain: data { type: "chain", test_mode: true, ' +
          'steps: [{ step: click|lead|sale|commission, ok, … }], chains_remaining }; 10 chains per program per hour, then the typed 429 rate_limited ' +
          'with retry_after_seconds. A chain step that fails answers 500 with error.details.request_id; the log line under that id lists the steps.',
      }),
    },
  )
}
