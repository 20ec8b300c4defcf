// Tolt, API v1 (docs/imports.md; docs.tolt.com): a Bearer key, every list scoped by
// `program_id`, pages by `starting_after=<last id>` while `has_more`. Customers answer one level deeper.
import { customerKeyOf, SKIP_REASONS, type ImportedState, type PartnerStatusWord } from '../domain/imports.ts'
import {
  centsOf,
  idOf,
  type Json,
  list,
  nameOf,
  obj,
  type Source,
  type SourceHttp,
  type SourceOptions,
  type SourcePage,
  type SourceStep,
  textOf,
  timeOf,
} from './source.ts'

const LIMIT = '100'
const statuses: PartnerStatusWord[] = ['active', 'pending', 'suspended', 'rejected']
const commissionState: Record<string, ImportedState> = {
  pending: 'pending',
  approved: 'due',
  paid: 'paid',
  rejected: 'reversed',
  refunded: 'reversed',
}

function pages(
  options: SourceOptions,
  name: string,
  path: string,
  extra: [string, string][],
  map: (item: Json, page: SourcePage, http: SourceHttp) => Promise<void> | void,
): SourceStep {
  return {
    name,
    async read(http, page) {
      const query: [string, string][] = [['program_id', options.sourceProgramId ?? ''], ['limit', LIMIT], ...extra]
      if (page) query.push(['starting_after', page])
      const body = obj(await http.get(path, query))
      // GET /customers answers `data: { data: [...] }` (docs/imports.md).
      const items = Array.isArray(body.data) ? list(body.data) : list(obj(body.data).data)
      const out: SourcePage = { rows: [], skipped: [], next: null }
      for (const item of items) await map(item, out, http)
      const last = items.length > 0 ? idOf(items.at(-1)!.id) : null
      out.next = body.has_more === true && last ? last : null
      return out
    },
  }
}

export const tolt: Source = {
  name: 'tolt',
  base: 'https://api.tolt.com/v1',
  missing: (o) => (o.sourceProgramId ? null : 'source_program_id is required for tolt (the program_id of every Tolt list)'),
  headers: (o) => ({ authorization: `Bearer ${o.apiKey}` }),
  errorText: (body) => textOf(obj(obj(body).error).message),
  steps(options) {
    // A commission without a currency is in the program's currency_code, read once from an expanded partner.
    let programCurrency: string | null | undefined
    const currencyOf = async (http: SourceHttp) => {
      if (programCurrency !== undefined) return programCurrency
      const body = obj(
        await http.get('/partners', [
          ['program_id', options.sourceProgramId ?? ''],
          ['limit', '1'],
          ['expand[]', 'program'],
        ]),
      )
      programCurrency = textOf(obj(list(body.data)[0]?.program).currency_code)?.toUpperCase() ?? null
      return programCurrency
    }
    return [
      pages(options, 'partners', '/partners', [], (p, out) => {
        const id = idOf(p.id)
        if (!id) return
        const createdAt = timeOf(p.created_at, 0)
        const status = statuses.includes(p.status as PartnerStatusWord) ? (p.status as PartnerStatusWord) : 'pending'
        const paypalEmail = p.payout_method === 'paypal' ? textOf(obj(p.payout_details).email) : null
        out.rows.push({
          kind: 'partner',
          sourceId: id,
          at: createdAt,
          data: {
            name: nameOf(p.first_name, p.last_name) ?? textOf(p.company_name),
            email: textOf(p.email),
            status,
            paypalEmail,
            createdAt,
          },
        })
      }),
      pages(options, 'links', '/links', [], (l, out) => {
        const id = idOf(l.id)
        const partner = idOf(l.partner_id)
        const token = textOf(l.value)
        if (id && partner && token)
          out.rows.push({ kind: 'link', sourceId: id, at: 0, data: { partner, token, param: textOf(l.param) ?? 'ref' } })
      }),
      pages(options, 'promotion codes', '/promotion-codes', [], (c, out) => {
        const id = idOf(c.id)
        const partner = idOf(c.partner_id)
        const code = textOf(c.code)
        if (id && partner && code) out.rows.push({ kind: 'coupon', sourceId: id, at: 0, data: { partner, code, promotionCode: null } })
      }),
      pages(options, 'customers', '/customers', [], (c, out) => {
        const id = idOf(c.id)
        if (!id) return
        const partner = idOf(c.partner_id)
        if (!partner) return void out.skipped.push({ kind: 'customer', sourceId: id, reason: SKIP_REASONS.noPartner })
        const key = customerKeyOf('tolt', id, textOf(c.customer_id))
        out.rows.push({
          kind: 'customer',
          sourceId: id,
          at: timeOf(c.created_at, 0),
          data: { partner, key, email: textOf(c.email), converted: c.status !== 'lead' },
        })
      }),
      pages(options, 'commissions', '/commissions', [], async (c, out, http) => {
        const id = idOf(c.id)
        if (!id) return
        const partner = idOf(c.partner_id)
        const amount = centsOf(c.amount)
        const state = commissionState[String(c.status)]
        if (!partner) return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.noPartner })
        if (amount === null || amount < 0 || !state)
          return void out.skipped.push({ kind: 'commission', sourceId: id, reason: SKIP_REASONS.amount })
        const at = timeOf(c.created_at, 0)
        out.rows.push({
          kind: 'commission',
          sourceId: id,
          at,
          data: {
            partner,
            customerKey: null,
            customerRef: idOf(c.customer_id),
            state,
            amountCents: amount,
            currency: textOf(c.currency)?.toUpperCase() ?? (await currencyOf(http)),
            saleAmountCents: centsOf(c.revenue) ?? 0,
            occurredAt: at,
            payout: state === 'paid' ? idOf(c.payout_id) : null,
            paidAt: null,
          },
        })
      }),
    ]
  },
}
