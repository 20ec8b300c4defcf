// The write phase of an import: each staged row written into the program, or skipped with its
// reason, or recognised as written by an earlier run (its source id is taken: nothing twice).
// Runs inside a writer unit. A dry run decides the same way and writes nothing: what it would
// have written is remembered here instead, so that later rows find it.
import type { Database } from '../db/open.ts'
import type { Origin } from '../db/import-writes.ts'
import type { StagedRow } from '../db/import-store.ts'
import type { Program } from '../db/schema.ts'
import { termsFor } from '../domain/attribution.ts'
import { dueAtOf } from '../domain/payout.ts'
import { IMPORTABLE_TOKEN, type ImportCounts, type ImportSource, SKIP_REASONS } from '../domain/imports.ts'
import type { CommissionData, CouponData, CustomerData, LinkData, PartnerData, PayoutData } from './source.ts'

export interface ApplyContext {
  database: Database
  importId: number
  programId: number
  /** The program imported into, read when the write phase starts: its currencies and terms. */
  program: Program
  source: ImportSource
  dryRun: boolean
  now: number
  counts: ImportCounts
  /** Each partner's last booked entry (lastBookedAt), read once and kept as the import appends. */
  booked: Map<number, number | null>
  /** Each partner's holding period (partner → group → program, docs/decisions.md, Groups), read once. */
  holding: Map<number, number>
  /** A dry run's partners, links, coupons, customers and sales by source id or key: what it would have written. */
  dry: { partners: Set<string>; tokens: Map<string, string>; codes: Map<string, string>; customers: Set<string>; sales: Set<string> }
}

export const newDryMemory = (): ApplyContext['dry'] => ({
  partners: new Set(),
  tokens: new Map(),
  codes: new Map(),
  customers: new Set(),
  sales: new Set(),
})

export type Outcome = { skipped: string } | null

const DRY_ID = -1

/** Writes one staged row (or, in a dry run, decides it); answers its skip reason, or null. */
export function applyRow(ctx: ApplyContext, row: StagedRow): Outcome {
  switch (row.kind) {
    case 'partner':
      return partner(ctx, row.sourceId, row.data as unknown as PartnerData)
    case 'link':
      return link(ctx, row.data as unknown as LinkData)
    case 'coupon':
      return coupon(ctx, row.sourceId, row.data as unknown as CouponData)
    case 'customer':
      return customer(ctx, row.data as unknown as CustomerData, row.at)
    case 'commission':
      return commission(ctx, row.sourceId, row.data as unknown as CommissionData, row.at)
    case 'payout':
      return payout(ctx, row.sourceId, row.data as unknown as PayoutData, row.at)
  }
}

const origin = (ctx: ApplyContext, sourceId: string): Origin => ({ programId: ctx.programId, source: ctx.source, sourceId })

function partnerId(ctx: ApplyContext, sourceId: string): number | null {
  const id = ctx.database.stores.importWrites.partnerOf(origin(ctx, sourceId))
  if (id !== null) return id
  return ctx.dryRun && ctx.dry.partners.has(sourceId) ? DRY_ID : null
}

function lastBooked(ctx: ApplyContext, partnerId: number): number | null {
  if (!ctx.booked.has(partnerId)) ctx.booked.set(partnerId, ctx.database.stores.importWrites.lastBookedAt(partnerId))
  return ctx.booked.get(partnerId) ?? null
}

function partner(ctx: ApplyContext, sourceId: string, p: PartnerData): Outcome {
  if (partnerId(ctx, sourceId) !== null) return null
  if (!p.name && !p.email) return { skipped: SKIP_REASONS.noEmailOrName }
  ctx.counts.partners++
  if (ctx.dryRun) ctx.dry.partners.add(sourceId)
  else ctx.database.stores.importWrites.createPartner(origin(ctx, sourceId), { ...p, createdAt: Math.min(p.createdAt || ctx.now, ctx.now) })
  return null
}

function link(ctx: ApplyContext, l: LinkData): Outcome {
  const owner = partnerId(ctx, l.partner)
  if (owner === null) return { skipped: SKIP_REASONS.noPartner }
  if (!IMPORTABLE_TOKEN.test(l.token)) return { skipped: SKIP_REASONS.tokenInvalid }
  const existing = ctx.database.stores.importWrites.link(l.token)
  if (existing) return existing.programId === ctx.programId && existing.partnerId === owner ? null : { skipped: SKIP_REASONS.tokenTaken }
  if (ctx.dryRun) {
    const planned = ctx.dry.tokens.get(l.token)
    if (planned !== undefined) return planned === l.partner ? null : { skipped: SKIP_REASONS.tokenTaken }
    ctx.dry.tokens.set(l.token, l.partner)
  } else ctx.database.stores.importWrites.createLink(ctx.programId, owner, l.token, ctx.source, ctx.now)
  ctx.counts.links++
  return null
}

function coupon(ctx: ApplyContext, sourceId: string, c: CouponData): Outcome {
  const owner = partnerId(ctx, c.partner)
  if (owner === null) return { skipped: SKIP_REASONS.noPartner }
  const writes = ctx.database.stores.importWrites
  if (writes.couponOf(origin(ctx, sourceId))) return null
  const holder = writes.couponCode(ctx.programId, c.code)
  const planned = ctx.dry.codes.get(c.code.toLowerCase())
  if (holder !== null || planned !== undefined) return { skipped: SKIP_REASONS.codeTaken }
  if (ctx.dryRun) ctx.dry.codes.set(c.code.toLowerCase(), c.partner)
  else writes.createCoupon(origin(ctx, sourceId), owner, c.code, c.promotionCode, ctx.now)
  ctx.counts.coupons++
  return null
}

function customer(ctx: ApplyContext, c: CustomerData, at: number): Outcome {
  const owner = partnerId(ctx, c.partner)
  if (owner === null) return { skipped: SKIP_REASONS.noPartner }
  const existing = ctx.database.stores.importWrites.customer(ctx.programId, c.key)
  if (existing) return existing.partnerId === owner || existing.partnerId === null ? null : { skipped: SKIP_REASONS.keyTaken }
  if (ctx.dryRun) {
    if (ctx.dry.customers.has(c.key)) return null
    ctx.dry.customers.add(c.key)
  } else
    ctx.database.stores.importWrites.createCustomer({
      programId: ctx.programId,
      key: c.key,
      partnerId: owner,
      email: c.email,
      converted: c.converted,
      at: Math.min(at || ctx.now, ctx.now),
      now: ctx.now,
    })
  ctx.counts.customers++
  return null
}

function commission(ctx: ApplyContext, sourceId: string, c: CommissionData, at: number): Outcome {
  const { stores } = ctx.database
  const owner = partnerId(ctx, c.partner)
  if (owner === null) return { skipped: SKIP_REASONS.noPartner }
  const o = origin(ctx, sourceId)
  if (stores.importWrites.saleOf(o) !== null || ctx.dry.sales.has(sourceId)) return null
  const currency = c.currency ?? 'USD'
  if (!ctx.program.currencies.includes(currency)) return { skipped: SKIP_REASONS.currency(currency) }
  ctx.counts.sales++
  ctx.counts.commissions++
  if (ctx.dryRun) return void ctx.dry.sales.add(sourceId), null
  const key = c.customerKey ?? (c.customerRef ? String(stores.imports.staged(ctx.importId, 'customer', c.customerRef)?.data.key ?? '') : '')
  const customerId = key ? (stores.importWrites.customer(ctx.programId, key)?.id ?? null) : null
  // Appended after what the partner's chain holds already, never before it (domain/imports.ts bookedAt).
  const floor = lastBooked(ctx, owner)
  const booked = floor !== null && at < floor ? Math.min(floor, ctx.now) : at
  ctx.booked.set(owner, booked)
  const saleId = stores.importWrites.insertSale(o, {
    customerId,
    partnerId: owner,
    amountCents: Math.max(0, c.saleAmountCents),
    currency,
    occurredAt: Math.min(c.occurredAt || booked, ctx.now),
    createdAt: ctx.now,
  })
  const entry = {
    programId: ctx.programId,
    saleId,
    partnerId: owner,
    amountCents: c.amountCents,
    currency,
    testMode: false,
    createdAt: booked,
  }
  // Source states are kept (docs/decisions.md, Turn 4: an imported due commission is due at once):
  // only a pending one waits its holding period, from when it is booked.
  const dueAt = c.state === 'pending' ? dueAtOf('commission', booked, holdingOf(ctx, owner)) : booked
  stores.sales.insertCommission({ ...entry, kind: 'commission', dueAt })
  if (c.state === 'reversed') {
    stores.sales.insertCommission({ ...entry, kind: 'reversal', amountCents: -c.amountCents, dueAt: booked })
    stores.sales.recordRefund(saleId, 'refund', `reversed in ${ctx.source}`, booked)
  }
  return null
}

/** The partner's holding period in days, by its terms (partner → group → program). */
function holdingOf(ctx: ApplyContext, partnerId: number): number {
  let days = ctx.holding.get(partnerId)
  if (days === undefined) {
    const own = ctx.database.stores.partners.terms(partnerId)
    days = termsFor(ctx.program, own, own?.group ?? null).holdingPeriodDays
    ctx.holding.set(partnerId, days)
  }
  return days
}

function payout(ctx: ApplyContext, sourceId: string, p: PayoutData, at: number): Outcome {
  const { stores } = ctx.database
  const owner = partnerId(ctx, p.partner)
  if (owner === null) return { skipped: SKIP_REASONS.noPartner }
  const o = origin(ctx, sourceId)
  if (stores.importWrites.payoutOf(o)) return null
  if (ctx.dryRun) {
    if (!p.commissions.some((id) => ctx.dry.sales.has(id) || stores.importWrites.unpaidEntries(ctx.programId, ctx.source, id)))
      return { skipped: SKIP_REASONS.nothingPaid }
    ctx.counts.payouts++
    return null
  }
  const entries = p.commissions
    .map((id) => stores.importWrites.unpaidEntries(ctx.programId, ctx.source, id))
    .filter((e): e is NonNullable<typeof e> => e !== null && e.partnerId === owner)
  if (entries.length === 0) return { skipped: SKIP_REASONS.nothingPaid }
  const floor = lastBooked(ctx, owner)
  const booked = Math.min(Math.max(at, floor ?? at), ctx.now)
  ctx.booked.set(owner, booked)
  // One payout per currency: a source payout of two currencies (none documented) becomes two.
  const currencies = [...new Set(entries.map((e) => e.currency))]
  for (const [n, currency] of currencies.entries()) {
    const mine = entries.filter((e) => e.currency === currency)
    const plan = {
      partnerId: owner,
      currency,
      amountCents: mine.reduce((sum, e) => sum + e.amountCents, 0),
      entryIds: mine.map((e) => e.entryId),
    }
    const [made] = stores.payouts.createPayouts(ctx.programId, [plan], booked)
    stores.payouts.markPaid(made!.id, `${ctx.source} ${sourceId}`, booked)
    stores.importWrites.setPayoutSource(made!.id, n === 0 ? o : { ...o, sourceId: `${sourceId}:${currency}` })
    ctx.counts.payouts++
  }
  return null
}
