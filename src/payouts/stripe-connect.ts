/**
 * Stripe Connect onboarding from the partner portal (docs/payouts.md, Stripe): an Express account
 * (docs.stripe.com/api/accounts/create) and its onboarding link
 * (docs.stripe.com/api/account_links/create); on the way back, the account is read
 * (docs.stripe.com/api/accounts/retrieve) to make sure it is the partner's own.
 */
import { jsonOf, timedFetch } from './rail.ts'
import type { StripeConfig } from './stripe.ts'

/** A connected account as the portal needs it. */
export interface ConnectedAccount {
  id: string
  /** The partner it was made for (metadata svc_partner_id), or null. */
  partnerId: number | null
  detailsSubmitted: boolean
}

async function stripeCall(config: StripeConfig, method: string, path: string, fields?: Record<string, string>): Promise<any> {
  const response = await timedFetch(`${config.apiBase}${path}`, {
    method,
    headers: { authorization: `Bearer ${config.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields ? new URLSearchParams(fields).toString() : undefined,
  })
  const answer = await jsonOf(response)
  if (!response.ok) throw new Error(`Stripe ${path}: ${answer?.error?.message ?? response.status}`)
  return answer
}

/** Makes an Express account for the partner, able to receive transfers; answers its id. */
export async function createExpressAccount(
  config: StripeConfig,
  partner: { id: number; programId: number; email: string | null },
): Promise<string> {
  const answer = await stripeCall(config, 'POST', '/v1/accounts', {
    type: 'express',
    ...(partner.email ? { email: partner.email } : {}),
    'capabilities[transfers][requested]': 'true',
    'metadata[svc_partner_id]': String(partner.id),
    'metadata[svc_program_id]': String(partner.programId),
  })
  if (typeof answer?.id !== 'string') throw new Error('Stripe /v1/accounts: no account id in the answer')
  return answer.id
}

/** The one-time onboarding URL of `account`: Stripe sends the partner back to `returnUrl` (or `refreshUrl` when the link expired). */
export async function onboardingLink(config: StripeConfig, account: string, returnUrl: string, refreshUrl: string): Promise<string> {
  const answer = await stripeCall(config, 'POST', '/v1/account_links', {
    account,
    type: 'account_onboarding',
    return_url: returnUrl,
    refresh_url: refreshUrl,
  })
  if (typeof answer?.url !== 'string') throw new Error('Stripe /v1/account_links: no url in the answer')
  return answer.url
}

/** The account as Stripe has it; throws when Stripe does not know it. */
export async function findAccount(config: StripeConfig, account: string): Promise<ConnectedAccount> {
  const answer = await stripeCall(config, 'GET', `/v1/accounts/${encodeURIComponent(account)}`)
  const partnerId = Number(answer?.metadata?.svc_partner_id)
  return {
    id: String(answer.id),
    partnerId: Number.isSafeInteger(partnerId) ? partnerId : null,
    detailsSubmitted: answer?.details_submitted === true,
  }
}
