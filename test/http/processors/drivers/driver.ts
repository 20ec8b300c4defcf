// The contract test's driver of one processor (contract.test.ts): what a driver gives, and the
// helpers the four share.
import { createHmac } from 'node:crypto'
import type { ProcessorName } from '../../../../src/processors/processor.ts'

export interface Payment {
  /** The processor's customer (ctm_…, cus_…, a number, a uuid). */
  customer: string
  clickId?: string
  customerKey?: string
  /** Net of tax, minor units; `tax` on top where the processor reports it. */
  net: number
  tax: number
  currency: string
  renewal?: boolean
  testMode?: boolean
}

export interface Sent {
  /** The exact JSON text sent. */
  body: string
  /** The sale's transaction id, for a later refund of it (payments only). */
  transactionId?: string
  /** The processor's own reference of the payment (what a refund event names). */
  ref?: string
}

export interface Driver {
  name: ProcessorName
  label: string
  /** The program field its secret is PATCHed into. */
  secretField: string
  secret: () => string
  payment(p: Payment): Sent
  refund(sale: Sent, p: Payment): Sent
  /** null: the processor has no chargeback event (not applicable). */
  chargeback: ((sale: Sent, p: Payment) => Sent) | null
  unknown(): Sent
  /** The headers the processor sends with `body` at `seconds`; `id` for Standard Webhooks' webhook-id. */
  sign(body: string, secret: string, seconds: number, id: string): Promise<Record<string, string>>
  /** How far back a signature is refused; null: the processor signs no time (not applicable). */
  staleAfterSeconds: number | null
  /** Whether a test-mode event exists (Paddle and Polar keep sandboxes apart instead: not applicable). */
  testMode: boolean
  /** The processor's official SDK accepting `headers` for `body` at the real time; null when there is none. */
  sdkAccepts: ((body: string, headers: Record<string, string>, secret: string) => Promise<boolean>) | null
}

let n = 0
export const next = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++n).toString(36).padStart(4, '0')}`
export const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
export const now = () => Math.floor(Date.now() / 1000)
export const hex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex')

export const custom = (p: Payment) => {
  const data: Record<string, string> = {}
  if (p.clickId) data.svc_click_id = p.clickId
  if (p.customerKey) data.svc_customer_key = p.customerKey
  return data
}

/** A fresh small number (Lemon Squeezy's ids are numbers). */
export const counter = () => ++n
