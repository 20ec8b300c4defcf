/**
 * Exactly once, whatever happens (docs/payouts.md; docs/decisions.md, Paying partners): a send
 * is recorded, with the idempotency key fixed by the payouts it carries, in the unit that makes
 * them `processing`, before any byte leaves. Then the sender sends it, with that key, until the
 * rail answers; after a crash (kill -9 at any point) the row is still there and is sent again with
 * the same key and body, never a new one. The provider's idempotency answers the original. This
 * file is the only place the rule is written; the rails (paypal.ts, stripe.ts) only speak HTTP.
 */
import type { Clock } from '../clock.ts'
import type { SendablePayout } from '../db/payout-send-store.ts'
import type { PayoutSend } from '../db/schema.ts'
import { payoutDetailsProblem, type PayoutRail, type SendItem } from '../domain/payout-method.ts'
import type { Mail } from '../outbox/mail.ts'
import { type Actor, systemActor } from '../domain/audit.ts'
import { payoutFailedInUnit } from '../tracking/failed-payout.ts'
import { paidNoticesInUnit } from '../tracking/payout-paid.ts'
import type { TrackingDeps } from '../tracking/deps.ts'
import type { Rail, SendAnswer, Settled } from './rail.ts'
import { Rerun } from '../outbox/rerun.ts'

/** How often a processing batch is asked for its items' status: docs/decisions.md says at least every 10 s. */
export const POLL_MS = 5_000

/** The waits before sending again after no answer (5xx, timeout, network), then every 30 minutes. */
const RETRY_WAITS = [5_000, 30_000, 120_000, 600_000]
const RETRY_THEN = 1_800_000

/** How long a stop waits for the request in flight. */
const STOP_WAIT_MS = 1_000

/** A payout that is not sent, and why: it stays pending. */
export interface Skipped {
  payout_id: number
  reason: string
}

/** What a send would carry (the dashboard's confirmation) or carries: per currency, how many payouts and their total. */
export interface SendPlan {
  groups: { currency: string; items: SendItem[] }[]
  skipped: Skipped[]
}

/** The requests a rail makes of these pending payouts: those of partners paid by it, in currencies it pays. */
export function planSend(rail: Rail, rows: SendablePayout[]): SendPlan {
  const skipped: Skipped[] = []
  const byCurrency = new Map<string, SendItem[]>()
  for (const row of rows) {
    const { payout } = row
    const details = (row.payoutDetails ?? '').trim()
    const reason =
      row.payoutMethod !== rail.name
        ? `the partner is paid by ${row.payoutMethod ?? 'no method yet'}, not ${rail.name}`
        : (payoutDetailsProblem(rail.name, details) ?? rail.cannotPay(payout.currency))
    if (reason) {
      skipped.push({ payout_id: payout.id, reason })
      continue
    }
    const items = byCurrency.get(payout.currency) ?? []
    items.push({ payoutId: payout.id, receiver: details, amountCents: payout.amountCents })
    byCurrency.set(payout.currency, items)
  }
  const groups: SendPlan['groups'] = []
  for (const [currency, items] of [...byCurrency].sort(([a], [b]) => a.localeCompare(b))) {
    const size = rail.perRequest === 'payout' ? 1 : rail.maxItems
    for (let i = 0; i < items.length; i += size) groups.push({ currency, items: items.slice(i, i + size) })
  }
  return { groups, skipped }
}

/**
 * Records the sends of the program's pending payouts (only `payoutIds` when given) to `rail`, in
 * one writer unit: each request's row with its key, its payouts `processing`. Answers the plan
 * recorded; the sender takes it from there.
 */
export function recordSends(deps: TrackingDeps, by: Actor, rail: Rail, programId: number, payoutIds?: number[]): Promise<SendPlan> {
  const { stores, writer } = deps.database
  return writer.run(() => {
    const rows = stores.payoutSends.pendingWithDetails(programId, payoutIds)
    const plan = planSend(rail, rows)
    // The payouts just read, for the audit entries: recording a send changes none of what they say.
    const read = new Map(rows.map(({ payout }) => [payout.id, payout]))
    const now = deps.clock.now()
    const installation = stores.payoutSends.installationId()
    for (const group of plan.groups) {
      const key = rail.keyOf(group.items, group.currency, installation)
      stores.payoutSends.record(programId, rail.name, group.currency, key, group.items, now)
      for (const item of group.items) {
        const payout = read.get(item.payoutId)!
        const details = { partner_id: payout.partnerId, amount_cents: payout.amountCents, currency: payout.currency, rail: rail.name }
        stores.audit.write(by, now, { program: programId, action: 'payout.send', object: ['payout', payout.id], details })
      }
    }
    return plan
  })
}

interface PayoutSenderOptions {
  /** How often due sends are looked for (real time); a wake() looks at once. */
  intervalMs: number
  log: (line: Record<string, unknown>) => void
}

/**
 * Sends the recorded sends and polls the accepted ones until every payout is final, one at a time;
 * each answer is recorded in its own writer unit. Picks up, at start, what a process that died left.
 */
export class PayoutSender {
  private timer: ReturnType<typeof setInterval> | null = null
  private readonly runs = new Rerun(
    () => this.drain(),
    () => this.stopping,
  )
  private stopping = false
  private installation: string | null = null

  constructor(
    private readonly deps: TrackingDeps & { mail: Mail; clock: Clock },
    private readonly rails: Partial<Record<PayoutRail, Rail>>,
    private readonly options: PayoutSenderOptions,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.wake(), this.options.intervalMs)
    this.wake()
  }

  wake(): void {
    this.runs.wake()
  }

  /**
   * Stops looking. A request in flight is waited for a second at most (a shutdown has 10 seconds,
   * docs/decisions.md): one still unanswered is left unrecorded, and the next start sends it again
   * with the same key, which is what exactly once is built for.
   */
  async stop(): Promise<void> {
    this.stopping = true
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await Promise.race([this.runs.current, new Promise<void>((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref?.())])
  }

  private async drain(): Promise<void> {
    const { stores } = this.deps.database
    try {
      while (!this.stopping && stores.payoutSends.anyDue(this.deps.clock.now())) {
        for (const send of stores.payoutSends.due(this.deps.clock.now())) {
          if (this.stopping) return
          await this.step(send)
        }
      }
    } catch (error) {
      this.options.log({ level: 'error', msg: 'payout sender failed', error: String((error as Error)?.message ?? error) })
    }
  }

  /** One attempt at one send: send it (state `sending`) or ask for its items (`polling`), and record the answer. */
  private async step(send: PayoutSend): Promise<void> {
    const { stores, writer } = this.deps.database
    const open = new Set(stores.payoutSends.processingOf(send.id).map((p) => p.id))
    const rail = this.rails[send.rail]
    if (open.size === 0) return void (await writer.run(() => stores.payoutSends.done(send.id)))
    const batch = {
      key: send.idempotencyKey,
      currency: send.currency,
      items: send.items,
      providerId: send.providerId,
      recordedAt: send.createdAt,
      installation: (this.installation ??= await writer.run(() => stores.payoutSends.installationId())),
    }
    let answer: SendAnswer
    try {
      if (!rail) answer = { kind: 'retry', message: `rail ${send.rail} is not configured on this server` }
      else if (send.state === 'sending') answer = await rail.send(batch, this.deps.clock.now())
      else answer = { kind: 'accepted', providerId: null, settled: await rail.status(batch) }
    } catch (error) {
      answer = { kind: 'retry', message: String((error as Error)?.message ?? error) }
    }
    // Stopped meanwhile: the database may be closing; the answer is asked for again at the next start.
    if (this.stopping) return
    const now = this.deps.clock.now()
    const mailed = await writer.run(() => {
      if (answer.kind === 'retry') {
        stores.payoutSends.retryLater(send.id, answer.message, now + (RETRY_WAITS[send.attempts] ?? RETRY_THEN))
        return false
      }
      const settled: Settled[] =
        answer.kind === 'rejected' ? [...open].map((payoutId) => ({ payoutId, failed: answer.message, code: answer.code })) : answer.settled
      let anyMail = false
      for (const outcome of settled) if (open.has(outcome.payoutId) && this.settle(outcome, now)) anyMail = true
      if (stores.payoutSends.processingOf(send.id).length === 0) stores.payoutSends.done(send.id)
      else stores.payoutSends.accepted(send.id, answer.kind === 'accepted' ? answer.providerId : null, now + POLL_MS)
      return anyMail
    })
    if (mailed) this.deps.mail.wake()
  }

  /** One payout's final word, in the answer's unit: paid (event, email) or failed (reason kept, entries due again, event). */
  private settle(outcome: Settled, now: number): boolean {
    const { stores } = this.deps.database
    if ('paid' in outcome) {
      const payout = stores.payouts.settle(outcome.payoutId, { paid: outcome.paid }, now)
      if (!payout) return false
      // The rail's answer made it paid: the job acts (docs/decisions.md, Turn 4: jobs act as system).
      const details = { partner_id: payout.partnerId, amount_cents: payout.amountCents, currency: payout.currency, reference: outcome.paid }
      stores.audit.write(systemActor, now, { program: payout.programId, action: 'payout.paid', object: ['payout', payout.id], details })
      return paidNoticesInUnit(this.deps, this.deps.mail, payout)
    }
    const payout = stores.payouts.settle(outcome.payoutId, { failed: outcome.failed }, now)
    if (!payout) return false
    const details = { partner_id: payout.partnerId, amount_cents: payout.amountCents, currency: payout.currency, reason: outcome.failed }
    stores.audit.write(systemActor, now, { program: payout.programId, action: 'payout.failed', object: ['payout', payout.id], details })
    payoutFailedInUnit(this.deps, outcome.payoutId, { code: outcome.code, message: outcome.failed })
    return false
  }
}
