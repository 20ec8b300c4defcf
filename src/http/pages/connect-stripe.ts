import { Elysia } from 'elysia'
import type { SessionOf } from '../../db/web-session-store.ts'
import { createExpressAccount, findAccount, onboardingLink } from '../../payouts/stripe-connect.ts'
import type { Deps } from '../deps.ts'
import { type Form, forbidden, pageKit } from './guard.ts'
import { seeOther } from './layout.ts'
import { sameSitePost, signedIn } from './session.ts'

const back = (notice: string, kind: 'done' | 'error' = 'error') => seeOther(`/partner?${kind}=${notice}#payout-details`)

/**
 * The portal's "Connect with Stripe" (docs/decisions.md, Paying partners): POST /partner/stripe/connect
 * makes an Express account (or goes on with the partner's own) and answers 303 to Stripe's
 * onboarding link; Stripe sends the partner back to /partner/stripe/return, where the account,
 * read from Stripe and checked to be this partner's, becomes their payout details (method stripe).
 */
export function connectStripeRoutes(deps: Deps) {
  const { writer, stores } = pageKit(deps)
  const partnerOf = (request: Request) => {
    const signed = signedIn(deps, request)
    return signed?.session.kind === 'partner' ? { signed, ...(signed.session as Extract<SessionOf, { kind: 'partner' }>) } : null
  }
  return new Elysia({ name: 'connect-stripe' })
    .post(
      '/partner/stripe/connect',
      async ({ request, body }) => {
        const who = partnerOf(request)
        if (!who) return seeOther('/partner/sign-in')
        if (!sameSitePost(deps, request, who.signed, (body ?? {}) as Form)) return forbidden(deps.config.publicBaseUrl)
        const stripe = deps.config.stripe
        if (!stripe) return back('payout_details_stripe_off')
        const partner = stores.partners.find(who.programId, who.partnerId)
        if (!partner) return seeOther('/partner/sign-in')
        const base = deps.config.publicBaseUrl
        try {
          // A partner who connected before goes on with the same account, not a second one.
          const account =
            partner.payoutMethod === 'stripe' && partner.payoutDetails?.startsWith('acct_')
              ? partner.payoutDetails
              : await createExpressAccount(stripe, { id: partner.id, programId: partner.programId, email: partner.email })
          const url = await onboardingLink(
            stripe,
            account,
            `${base}/partner/stripe/return?account=${account}`,
            `${base}/partner?error=payout_details_stripe_unfinished#payout-details`,
          )
          return seeOther(url)
        } catch (error) {
          deps.log({ level: 'warn', msg: 'stripe connect failed', error: String((error as Error)?.message ?? error) })
          return back('payout_details_stripe_failed')
        }
      },
      { detail: { hide: true } },
    )
    .get(
      '/partner/stripe/return',
      async ({ request, query }) => {
        const who = partnerOf(request)
        if (!who) return seeOther('/partner/sign-in')
        const stripe = deps.config.stripe
        if (!stripe) return back('payout_details_stripe_off')
        const id = String(query.account ?? '')
        if (!/^acct_[A-Za-z0-9]{1,100}$/.test(id)) return back('payout_details_stripe_failed')
        let account: Awaited<ReturnType<typeof findAccount>>
        try {
          account = await findAccount(stripe, id)
        } catch {
          return back('payout_details_stripe_failed')
        }
        // Only the account made for this partner: a link with another account id changes nothing.
        if (account.partnerId !== who.partnerId) return back('payout_details_stripe_failed')
        if (!account.detailsSubmitted) return back('payout_details_stripe_unfinished')
        await writer.run(() => stores.partners.update(who.programId, who.partnerId, { payoutMethod: 'stripe', payoutDetails: account.id }))
        return back('payout_details_stripe', 'done')
      },
      { detail: { hide: true } },
    )
}
