import { Elysia } from 'elysia'
import type { SessionOf } from '../../db/web-session-store.ts'
import type { Partner } from '../../db/partner-store.ts'
import type { StripeConfig } from '../../payouts/stripe.ts'
import { createExpressAccount, findAccount, madeFor, onboardingLink } from '../../payouts/stripe-connect.ts'
import type { Deps } from '../deps.ts'
import { type Form, forbidden, pageKit } from './guard.ts'
import { seeOther } from './layout.ts'
import { sameSitePost, signedIn } from './session.ts'

const back = (notice: string, kind: 'done' | 'error' = 'error') => seeOther(`/partner?${kind}=${notice}#payout-details`)

/** How many Stripe accounts one partner may make in a day (docs/payouts.md, Stripe): each press does not make one. */
export const STRIPE_ACCOUNTS_A_DAY = 3
const DAY_MS = 86_400_000

/**
 * The portal's "Connect with Stripe" (docs/decisions.md, Paying partners): POST /partner/stripe/connect
 * goes on with the partner's own account (their saved one, or the one made for them last), read
 * from Stripe and checked to be made for them (metadata svc_partner_id), or makes an Express
 * account (a few a day at most), and answers 303 to Stripe's onboarding link; Stripe sends the
 * partner back to /partner/stripe/return, where the account, checked the same way, becomes their
 * payout details (method stripe). An account id someone else typed never gets a link.
 */
export function connectStripeRoutes(deps: Deps) {
  const { writer, stores } = pageKit(deps)
  const installation = () => writer.run(() => stores.payoutSends.installationId())

  /** The partner's own account to go on with, or null: the saved one, then the one made for them last, each as Stripe says. */
  async function ownAccount(stripe: StripeConfig, partner: Partner, ours: string): Promise<string | null> {
    const saved = partner.payoutMethod === 'stripe' && partner.payoutDetails?.startsWith('acct_') ? partner.payoutDetails : null
    for (const id of new Set([saved, stores.connectAccounts.latest(partner.id)])) {
      if (id && madeFor(await findAccount(stripe, id), partner.id, ours)) return id
    }
    return null
  }

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
          // A partner who connected (or began to) goes on with the same account, not a second one.
          const ours = await installation()
          let account = await ownAccount(stripe, partner, ours)
          if (!account) {
            if (stores.connectAccounts.madeSince(partner.id, deps.clock.now() - DAY_MS) >= STRIPE_ACCOUNTS_A_DAY)
              return back('payout_details_stripe_limit')
            const made = await createExpressAccount(stripe, { id: partner.id, programId: partner.programId, email: partner.email }, ours)
            await writer.run(() => stores.connectAccounts.made(partner.id, made, deps.clock.now()))
            account = made
          }
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
        if (!madeFor(account, who.partnerId, await installation())) return back('payout_details_stripe_failed')
        if (!account.detailsSubmitted) return back('payout_details_stripe_unfinished')
        await writer.run(() => stores.partners.update(who.programId, who.partnerId, { payoutMethod: 'stripe', payoutDetails: account.id }))
        return back('payout_details_stripe', 'done')
      },
      { detail: { hide: true } },
    )
}
