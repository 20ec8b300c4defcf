import { decideLead } from '../domain/lead.ts'
import type { Program } from '../db/schema.ts'
import { presentRow } from '../domain/record.ts'
import type { TrackingDeps } from './deps.ts'
import { ipHash } from './ip-hash.ts'
import { emitEvent } from './webhook-events.ts'

/** A validated lead, from POST /api/v1/track/lead or a payment-processor event (issue 6). */
export interface LeadInput {
  clickId: string | null
  customerKey: string | null
  email: string | null
  testMode: boolean
  /**
   * `server`: sent with the program key (or by a verified processor event) and settles a
   * provisional lead; `browser`: no key, provisional under lead_auth server_required.
   */
  mode: 'server' | 'browser'
  /** The customer's IP for a browser-mode lead (null otherwise), kept as a keyed hash for same_ip. */
  ip?: string | null
}

export type LeadOutcome =
  | { kind: 'recorded'; customerId: number; status: 'provisional' | 'lead' | 'converted'; provisional: boolean }
  | { kind: 'rejected'; reason: 'not_found' | 'other_program' }
  | { kind: 'rejected'; reason: 'status_locked'; status: string }

/**
 * Records a lead in one writer unit (docs/api.md, Customer states): creates the customer from
 * its first click, settles a provisional one, or refuses with a reason; a refusal writes nothing.
 * A provisional lead saves neither customer_key nor email, and counts and pays nothing.
 */
export function recordLead(deps: TrackingDeps, program: Program, input: LeadInput): Promise<LeadOutcome> {
  return deps.database.writer.run(() => recordLeadInUnit(deps, program, input))
}

/** recordLead's unit, for a caller already inside a writer unit (a processor event, issue 6). */
export function recordLeadInUnit(deps: TrackingDeps, program: Program, input: LeadInput): LeadOutcome {
  const { database, clock } = deps
  const store = database.stores.tracking
  const provisional = input.mode === 'browser' && program.leadAuth === 'server_required'
  const now = clock.now()
  const { clickId, customerKey } = input
  const decision = decideLead({
    provisional,
    byKey: customerKey === null || provisional ? null : store.customerByKey(program.id, customerKey),
    byClick: clickId === null ? null : store.customerByClick(program.id, clickId),
    click: clickId === null ? null : store.firstClick(program.id, clickId),
    // Only a keyed caller learns that its identifiers belong to another program: a browser-mode
    // answer must not tell whether a customer_key exists elsewhere (docs/decisions.md, Hostile input).
    foreign: input.mode === 'server' && store.knownElsewhere(program.id, clickId, customerKey),
  })
  switch (decision.kind) {
    case 'reject': {
      const { kind: _, ...rejection } = decision
      return { kind: 'rejected', ...rejection }
    }
    case 'unchanged':
      return { kind: 'recorded', customerId: decision.customerId, status: 'provisional', provisional: true }
    case 'settle':
      store.settleCustomer(decision.customerId, decision.status, customerKey, input.email, now, ipHash(deps.secret, input.ip ?? null))
      leadEvent(deps, program.id, decision.customerId, decision.status)
      return { kind: 'recorded', customerId: decision.customerId, status: decision.status, provisional: false }
    case 'create': {
      const customerId = store.insertCustomer({
        programId: program.id,
        customerKey: provisional ? null : customerKey,
        email: provisional ? null : input.email,
        status: decision.status,
        click: decision.click,
        testMode: input.testMode,
        leadAt: provisional ? null : now,
        convertedAt: null,
        now,
        leadIpHash: ipHash(deps.secret, input.ip ?? null),
      })
      if (!provisional) leadEvent(deps, program.id, customerId, decision.status)
      return { kind: 'recorded', customerId, status: decision.status, provisional }
    }
  }
}

/** lead.created for a customer that became a lead, with the customer as the customers read route shows it. */
function leadEvent(deps: TrackingDeps, programId: number, customerId: number, status: string): void {
  if (status !== 'lead') return
  emitEvent(deps, programId, 'lead.created', () => presentRow('customer', deps.database.stores.tracking.customerRow(customerId)!))
}

/**
 * Settles a provisional lead, or records the lead, as the lead endpoint does with a program key,
 * inside the caller's writer unit: the path a payment-processor event takes when it can resolve
 * the customer (issue 6; the event row is written in the same unit).
 */
export function settleLeadInUnit(deps: TrackingDeps, program: Program, input: Omit<LeadInput, 'mode'>): LeadOutcome {
  return recordLeadInUnit(deps, program, { ...input, mode: 'server' })
}

/** The program a browser-mode lead belongs to: its click's program, else additional_data.program_id. */
export function programForBrowserLead(deps: TrackingDeps, clickId: string | null, programId: number | null): Program | null {
  const { tracking, programs } = deps.database.stores
  const id = (clickId === null ? null : tracking.programOfClick(clickId)) ?? programId
  return id === null ? null : programs.findProgram(id)
}
