import { Elysia } from 'elysia'
import type { HeldCommission } from '../../db/sale-store.ts'
import type { Program } from '../../db/schema.ts'
import { FLAG_EXPLANATIONS } from '../../domain/fraud.ts'
import { reviewCommission } from '../../tracking/review.ts'
import type { Deps } from '../deps.ts'
import { money, when } from './format.ts'
import { pageKit } from './guard.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import * as owner from './owner-pages.ts'

/** How many held commissions the page lists at once (the newest); the count on the tab says how many in all. */
const SHOWN = 100

/** What the program's fraud_review does, in words, with where to change it. */
function modeInWords(program: Program, base: string): Safe {
  const mode =
    program.fraudReview === 'hold'
      ? 'A commission with a fraud signal is held here, out of every payout run, until you approve or reject it.'
      : program.fraudReview === 'flag'
        ? 'Commissions with a fraud signal are flagged in the ledger but paid as usual: nothing is held.'
        : 'Fraud signals are off: commissions are not checked.'
  return html`<p class="muted">${mode} <a href="${base}/settings#fraud-review">Change this in Settings.</a></p>`
}

function heldCard(c: HeldCommission, base: string, csrf: string): Safe {
  const action = `${base}/review/${c.id}`
  return html`<article class="panel" data-held="${c.id}">
<h3>${money(c.amountCents, c.currency)} to ${c.partnerName ?? c.partnerEmail ?? `partner #${c.partnerId}`} <span class="muted">commission #${c.id}${c.testMode ? ' · test data, never paid' : ''}</span></h3>
<p class="muted">Sale <code>${c.transactionId}</code> of ${money(c.saleAmountCents, c.currency)}, booked ${when(c.createdAt)}.</p>
<ul class="flags">${c.flags.map((flag) => html`<li><b>${flag.replace('_', ' ')}</b>: ${FLAG_EXPLANATIONS[flag]}</li>`)}</ul>
<div class="actions">
<form method="post" action="${action}">${csrfField(csrf)}<input type="hidden" name="action" value="approve"><button>Approve</button></form>
<form method="post" action="${action}" class="reject">${csrfField(csrf)}<input type="hidden" name="action" value="reject">
<label>Reason (optional) <input name="reason" maxlength="500" placeholder="e.g. bought through their own link"></label>
<button class="danger">Reject</button></form>
</div>
</article>`
}

/** GET /dashboard/programs/:id/review: the commissions held for review, each flag explained, approve or reject. */
export function reviewPage(program: Program, held: HeldCommission[], total: number, csrf: string): Safe {
  const base = `/dashboard/programs/${program.id}`
  return html`${owner.programHeader(program, '/review')}<section class="panel"><h2>Review <span class="muted">(${total} held)</span></h2>
${modeInWords(program, base)}
<p class="muted">Approve to pay it like any other commission once its holding period, counted from when the sale was recorded, has passed (an older one is due at once). Reject to cancel it: a reversal entry is written and it is never paid.</p>
${held.length === 0 ? html`<p data-empty>Nothing waits for review.</p>` : ''}</section>
${held.slice(0, SHOWN).map((c) => heldCard(c, base, csrf))}${total > SHOWN ? html`<p class="muted">The ${SHOWN} newest are shown; review them to see the next.</p>` : ''}`
}

/** The Review page and its approve and reject forms (docs/decisions.md, Fraud signals and review). */
export function reviewRoutes(deps: Deps) {
  const { stores, ownerPage, ownerPost, back } = pageKit(deps)
  return new Elysia({ name: 'review' })
    .get(
      '/dashboard/programs/:id/review',
      ownerPage(
        ({ program, query, signed }) =>
          html`${owner.notice(query)}${reviewPage(program, stores.sales.heldPage(program.id, SHOWN, null), stores.sales.heldCount(program.id), signed.csrf)}`,
        'Review',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/review/:commission_id',
      ownerPost(async ({ by, program, form, params }) => {
        const id = Number(params.commission_id)
        const reason = (form.reason ?? '').trim()
        if (!Number.isSafeInteger(id) || id <= 0 || (form.action !== 'approve' && form.action !== 'reject'))
          return back(program, '/review', 'review_conflict', 'error')
        if (form.action === 'reject' && reason.length > 500) return back(program, '/review', 'review_reason_invalid', 'error')
        const decision =
          form.action === 'approve' ? ({ action: 'approve' } as const) : ({ action: 'reject', reason: reason || null } as const)
        const outcome = await reviewCommission(deps, by, program.id, id, decision)
        if (outcome.kind !== 'reviewed') return back(program, '/review', 'review_conflict', 'error')
        return back(program, '/review', form.action === 'approve' ? 'review_approved' : 'review_rejected')
      }),
      { detail: { hide: true } },
    )
}
