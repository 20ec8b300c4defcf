import type { Api } from '../../helpers.ts'

/**
 * A program named "Shop Partners" (20 % of the first sale) whose partners join on `signup` terms,
 * owned by a new account of `owner`: what the join tests apply to.
 */
export async function joinProgram(api: Api, signup: 'approval' | 'open' | 'off', owner: string) {
  const account = await api.admin('POST', '/accounts', { email: owner })
  const made = await api.admin('POST', '/programs', {
    account_id: account.body.data.account_id,
    name: 'Shop Partners',
    domain: 'shop.test',
    commission_type: 'percent',
    commission_rate: 20,
    partner_signup: signup,
  })
  return { id: made.body.data.program_id as number, owner, key: made.body.data.api_key as string }
}
