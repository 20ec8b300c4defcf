/**
 * Stripe Connect onboarding from the partner portal (docs/payouts.md, Stripe): an Express account
 * (docs.stripe.com/api/accounts/create) and its onboarding link
 * (docs.stripe.com/api/account_links/create); on the way back, the account is read
 * (docs.stripe.com/api/accounts/retrieve) to make sure it is the partner's own.
 */
import { jsonOf, timedFetch } from './rail.ts'
import { form, type StripeConfig, stripeHeaders } from './stripe.ts'

/** A connected account as the portal needs it. */
export interface ConnectedAccount {
  id: string
  /** The partner it was made for (metadata svc_partner_id), or null. */
  partnerId: number | null
  /** The svc installation that made it (metadata svc_installation), or null when it names none. */
  installation: string | null
  detailsSubmitted: boolean
}

/** A Stripe answer other than success: its status kept, so that a missing account can be told from an outage. */
class StripeError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

async function stripeCall(config: StripeConfig, method: string, path: string, fields?: Record<string, string>): Promise<any> {
  const response = await timedFetch(`${config.apiBase}${path}`, {
    method,
    headers: stripeHeaders(config),
    body: fields ? form(fields) : undefined,
  })
  const answer = await jsonOf(response)
  if (!response.ok) throw new StripeError(`Stripe ${path}: ${answer?.error?.message ?? response.status}`, response.status)
  return answer
}

/** Makes an Express account for the partner, able to receive transfers; answers its id. */
export async function createExpressAccount(
  config: StripeConfig,
  partner: { id: number; programId: number; email: string | null },
  installation: string,
): Promise<string> {
  const answer = await stripeCall(config, 'POST', '/v1/accounts', {
    type: 'express',
    ...(partner.email ? { email: partner.email } : {}),
    'capabilities[transfers][requested]': 'true',
    'metadata[svc_partner_id]': String(partner.id),
    'metadata[svc_program_id]': String(partner.programId),
    'metadata[svc_installation]': installation,
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

/** The account as Stripe has it, or null when Stripe does not know it (or it is not the platform's); throws when Stripe cannot be read. */
export async function findAccount(config: StripeConfig, account: string): Promise<ConnectedAccount | null> {
  let answer: any
  try {
    answer = await stripeCall(config, 'GET', `/v1/accounts/${encodeURIComponent(account)}`)
  } catch (error) {
    if (error instanceof StripeError && (error.status === 404 || error.status === 403)) return null
    throw error
  }
  const partnerId = Number(answer?.metadata?.svc_partner_id)
  const installation = answer?.metadata?.svc_installation
  return {
    id: String(answer.id),
    partnerId: answer?.metadata?.svc_partner_id !== undefined && Number.isSafeInteger(partnerId) ? partnerId : null,
    installation: typeof installation === 'string' ? installation : null,
    detailsSubmitted: answer?.details_submitted === true,
  }
}

/**
 * Whether Stripe says the account was made for this partner by this installation: its metadata
 * svc_partner_id, and its svc_installation when it names one (accounts made before it was kept name none).
 */
export const madeFor = (account: ConnectedAccount | null, partnerId: number, installation: string): account is ConnectedAccount =>
  account !== null && account.partnerId === partnerId && (account.installation ?? installation) === installation
