// PartnerStack, Vendor API v2 (docs/imports.md; docs.partnerstack.com): HTTP Basic with the
// public key and the secret key (the import's key written `PUBLIC:SECRET`), `starting_after=<last key>`
// pages while `data.has_more`. Times are epoch ms. A partner's link token is its partner_key.
import { customerKeyOf, SKIP_REASONS, type ImportedState } from '../domain/imports.ts'
import { centsOf, idOf, type Json, list, nameOf, obj, type Source, type SourcePage, type SourceStep, textOf, timeOf } from './source.ts'

const LIMIT = '250'
const rewardState: Record<string, ImportedState> = {
  hold: 'pending',
  pending: 'pending',
  scheduled: 'pending',
  approved: 'due',
  paid: 'paid',
  declined: 'reversed',
}

function pages(name: string, path: string, map: (item: Json, page: SourcePage) => void): SourceStep {
  return {
    name,
    async read(http, page) {
      const query: [string, string][] = [['limit', LIMIT]]
      if (page) query.push(['starting_after', page])
      const data = obj(obj(await http.get(path, query)).data)
      const items = list(data.items)
      const out: SourcePage = { rows: [], skipped: [], next: null }
      for (const item of items) map(item, out)
      const last = items.length > 0 ? idOf(items.at(-1)!.key) : null
      out.next = data.has_more === true && last ? last : null
      return out
    },
  }
}

export const partnerstack: Source = {
  name: 'partnerstack',
  base: 'https://api.partnerstack.com/api/v2',
  missing: (o) => (o.apiKey.includes(':') ? null : 'api_key for partnerstack is PUBLIC_KEY:SECRET_KEY'),
  headers: (o) => ({ authorization: `Basic ${btoa(o.apiKey)}` }),
  errorText: (body) => textOf(obj(body).message),
  steps: () => [
    pages('partnerships', '/partnerships', (p, out) => {
      const id = idOf(p.key)
      if (!id) return
      const createdAt = timeOf(p.joined_at, timeOf(p.created_at, 0))
      // No status is documented on a partnership: the listed ones are imported active (docs/imports.md).
      out.rows.push({
        kind: 'partner',
        sourceId: id,
        at: createdAt,
        data: { name: nameOf(p.first_name, p.last_name), email: textOf(p.email), status: 'active', paypalEmail: null, createdAt },
      })
      const token = textOf(p.partner_key)
      if (token) out.rows.push({ kind: 'link', sourceId: id, at: createdAt, data: { partner: id, token } })
    }),
    pages('customers', '/customers', (c, out) => {
      const id = idOf(c.key)
      if (!id) return
      const partner = idOf(c.partnership_key)
      if (!partner) return void out.skipped.push({ kind: 'customer', sourceId: id, reason: SKIP_REASONS.noPartner })
      out.rows.push({
        kind: 'customer',
        sourceId: id,
        at: timeOf(c.created_at, 0),
        data: { partner, key: customerKeyOf('partnerstack', id, textOf(c.provider_key)), email: textOf(c.email), converted: true },
      })
    }),
    pages('rewards', '/rewards', (r, out) => {
      const id = idOf(r.key)
      if (!id) return
      const partner = idOf(obj(r.partnership).key)
      const amount = centsOf(r.amount)
      const state = rewardState[String(r.reward_status)]
      if (!partner) return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.noPartner })
      if (amount === null || amount < 0 || !state)
        return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.amount })
      const transaction = obj(r.transaction)
      const at = timeOf(r.created_at, 0)
      out.rows.push({
        kind: 'commission',
        sourceId: id,
        at,
        data: {
          partner,
          customerKey: null,
          customerRef: idOf(obj(r.customer).key),
          state,
          amountCents: amount,
          currency: textOf(r.currency)?.toUpperCase() ?? textOf(transaction.currency)?.toUpperCase() ?? null,
          saleAmountCents: centsOf(transaction.amount) ?? 0,
          occurredAt: at,
          paidAt: null,
        },
      })
    }),
  ],
}
