/**
 * One shape for every payment processor (src/processors/README.md): each file
 * beside this one checks its processor's signature, parses its events and turns a verified event
 * into what the tracking use cases take: a sale, a refund, or an ignored event with its reason.
 * Attribution, idempotency and the event log stay shared (src/tracking/processor-event.ts).
 * Pure but for node:crypto (on Bun and Deno alike): no clock, no database, no SDK.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { ReferralKeys } from '../domain/stripe-event.ts'

export type { ReferralKeys }

export const PROCESSOR_NAMES = ['stripe', 'paddle', 'lemonsqueezy', 'polar'] as const
export type ProcessorName = (typeof PROCESSOR_NAMES)[number]

export type Json = Record<string, unknown>

/** A verified event as the log keeps it; `data` is the processor's own object for its reader. */
export interface ProcessorEvent {
  /** Unique across processors: Stripe's evt_… as it is, the others prefixed (`paddle:evt_…`). */
  id: string
  type: string
  /** Live (true) or test (false) when the processor says so; null when it has no test flag. */
  livemode: boolean | null
  /** Stripe Connect: the connected account; null elsewhere. */
  account: string | null
  /** When the processor made the event, epoch ms; null when it does not say. */
  createdAt: number | null
  data: Json
}

/** A payment, shaped for the sale path. Amounts are in ISO 4217 minor units (converted at the processor's edge). */
export interface ProcessorSale {
  /** Unique across the server: a later POST /track/sale for the same payment answers 409. */
  transactionId: string
  /** The processor's object the payment was read from (cs_…, in_…, txn_…, an order id). */
  providerPaymentId: string
  amountCents: number
  /** Upper case; null when the event names none. */
  currency: string | null
  occurredAt: number | null
  /** What kind of payment, for the log's wording: subscription_cycle, renewal, …; null for a one-off. */
  billingReason: string | null
  keys: ReferralKeys
  /** Stripe promotion codes (promo_…) a partner's coupon may carry; empty elsewhere. */
  promotionCodes: string[]
  /** Stripe: the cus_… whose promotion-code sale keys its customer `stripe:cus_…`. */
  stripeCustomer: string | null
  /**
   * The processor's customer (`paddle:ctm_…`): remembered with the customer at its first payment,
   * so that a renewal without custom data is the same customer (docs/decisions.md, Selling anywhere).
   */
  processorCustomer: string | null
  customerEmail: string | null
  /** Why no sale is recorded although a provisional lead may still settle (unpaid, zero amount). */
  noSale: string | null
  /** Test data (a Stripe or Lemon Squeezy test-mode event): never live money. */
  testMode: boolean
  /**
   * Set when the event names no referral key and only the processor customer can say who paid:
   * the reason the event is ignored when the program has no customer keyed `processorCustomer`.
   */
  unknownCustomer?: string | null
}

export type Reading =
  | { kind: 'sale'; sale: ProcessorSale }
  /** A refund or chargeback of the sale recorded under one of `transactionIds` (the first found). */
  | { kind: 'refund'; transactionIds: string[]; reason: 'refund' | 'chargeback'; what: string }
  | { kind: 'ignored'; detail: string }

export type SignatureFailure = 'missing_header' | 'malformed_header' | 'no_secret' | 'stale' | 'future' | 'mismatch'
export type SignatureCheck = { ok: true } | { ok: false; reason: SignatureFailure }

/** What a program holds for a processor: its secrets, its mode. */
export interface ProgramFacts {
  id: number
  livemode: boolean | null
  stripeWebhookSecrets: string[]
  paddleWebhookSecret: string | null
  lemonsqueezyWebhookSecret: string | null
  polarWebhookSecret: string | null
}

export interface Processor {
  name: ProcessorName
  /** As people write it: Paddle, Lemon Squeezy. */
  label: string
  /** The signature header(s), as refusals name them. */
  header: string
  /** How old (or new) a signed timestamp may be; null when the processor signs no time. */
  toleranceSeconds: number | null
  /** What a body must be, as the 400 for another one says. */
  shape: string
  /** The program's signing secrets for this processor (several while Stripe's is rotated). */
  secretsOf(program: ProgramFacts): string[]
  /** Whether `headers` sign the exact bytes `raw` under one of `secrets` at `nowMs`. */
  verify(raw: Uint8Array, headers: Headers, secrets: readonly string[], nowMs: number): SignatureCheck
  /** The event of a verified, parsed body, or null when it is not this processor's shape. */
  parse(body: unknown, raw: Uint8Array, headers: Headers): ProcessorEvent | null
  /** What the event means for the program. */
  read(event: ProcessorEvent, program: ProgramFacts): Reading
  /** The headers this processor would send with `payload` at `nowSeconds` (the CLI replay, the tests). */
  sign(payload: string, secret: string, nowSeconds: number, id?: string): Record<string, string>
  /** The event types it reads; others are stored as ignored with that reason. */
  handledTypes: readonly string[]
}

/** A JSON object, or null. */
export const objectOf = (value: unknown): Json | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null

/** A non-blank string, trimmed, or null. */
export const textOf = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value)
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : null
}

/** A non-negative safe integer, from a number or a string of digits (Paddle sends amounts as strings), or null. */
export const amountOf = (value: unknown): number | null => {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null
}

/** An ISO 8601 time as epoch ms, or null. */
export const timeOf = (value: unknown): number | null => {
  if (typeof value !== 'string') return null
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? null : ms
}

/** The referral keys of a custom data object (svc_click_id, svc_customer_key, program_id); missing ones null. */
export function keysOf(custom: unknown): ReferralKeys {
  const o = objectOf(custom) ?? {}
  return { clickId: textOf(o.svc_click_id), customerKey: textOf(o.svc_customer_key), programId: textOf(o.program_id) }
}

/** Hex HMAC-SHA256 of `parts` under `key`. */
export function hmacHex(key: string | Uint8Array, ...parts: (string | Uint8Array)[]): string {
  const mac = createHmac('sha256', key)
  for (const part of parts) mac.update(part)
  return mac.digest('hex')
}

/** Base64 HMAC-SHA256 of `parts` under `key`. */
export function hmacBase64(key: string | Uint8Array, ...parts: (string | Uint8Array)[]): string {
  const mac = createHmac('sha256', key)
  for (const part of parts) mac.update(part)
  return mac.digest('base64')
}

/** Constant-time equality of two strings of the same encoding (false for different lengths). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Whether any expected signature equals any given one: every pair is compared, no early exit (sameText takes the same time whatever matches). */
export function anySame(expected: readonly string[], given: readonly string[]): boolean {
  let matched = false
  for (const e of expected) for (const g of given) if (sameText(e, g)) matched = true
  return matched
}

/** An ignored reading. */
export const ignored = (detail: string): Reading => ({ kind: 'ignored', detail })

/** The reading of an event of the other mode than the program's (live or test), or null. */
export function otherMode(event: ProcessorEvent, program: ProgramFacts): Reading | null {
  return event.livemode !== null && program.livemode !== null && event.livemode !== program.livemode
    ? ignored(`Livemode mismatch: a ${event.livemode ? 'live-mode' : 'test-mode'} event for a program of the other mode`)
    : null
}

/** The reading of an event whose custom data names another program, or null. */
export function otherProgram(keys: ReferralKeys, program: ProgramFacts): Reading | null {
  return keys.programId !== null && keys.programId !== String(program.id)
    ? ignored(`Custom data program_id ${keys.programId} names another program than this one (${program.id})`)
    : null
}

/** Why a payment records no sale although it is the program's: nothing paid. */
export { zeroAmount } from '../domain/stripe-event.ts'
