import type { ExportedSale } from '../../db/list-store.ts'
import type { PartnerWithLinks } from '../../db/partner-store.ts'
import type { CsvPayout } from '../../db/payout-store.ts'
import type { Commission, PartnerGroup, Program } from '../../db/schema.ts'
import { termsFor } from '../../domain/attribution.ts'
import { iso } from '../../domain/time.ts'
import { formatAmount } from '../../domain/payout.ts'

/** A number written as text ("-12.50"): a cell never prefixed, since it is no formula. */
export type NumberText = { number: string }
export type Cell = string | number | null | NumberText

/** An amount in major units with a decimal point, as a number cell: 1234 USD → 12.34, -500 → -5.00. */
export const amountCell = (cents: number, currency: string): NumberText => ({ number: formatAmount(cents, currency) })

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A text that a
 * spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return)
 * is prefixed with a single quote, so that an imported partner name never becomes a formula.
 */
export function csvCell(value: Cell): string {
  if (value !== null && typeof value === 'object') return value.number
  let text = value === null ? '' : String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV record, without its line ending. */
export function csvLine(values: Cell[]): string {
  return values.map(csvCell).join(',')
}

const PAYOUT_CSV_HEADER = [
  'payout_id',
  'partner_id',
  'partner_name',
  'partner_email',
  'currency',
  'amount',
  'commissions',
  'status',
  'payout_method',
  'payout_details',
]

/** A CSV document: the header row, then one record per row; CRLF line endings (RFC 4180). */
export function csvText(header: string[], rows: Cell[][]): string {
  return [csvLine(header), ...rows.map(csvLine)].join('\r\n') + '\r\n'
}

/**
 * The payouts CSV for batch payment tools (docs/payouts.md): a header row, then one record per
 * payout with its amount in major units; CRLF line endings. Served by the operator API and by the
 * dashboard's download link.
 */
export function payoutsCsvText(rows: CsvPayout[]): string {
  return csvText(
    PAYOUT_CSV_HEADER,
    rows.map((p) => [
      p.id,
      p.partnerId,
      p.partnerName,
      p.partnerEmail,
      p.currency,
      amountCell(p.amountCents, p.currency),
      p.commissions,
      p.status,
      p.payoutMethod,
      p.payoutDetails,
    ]),
  )
}

/** Partners' names by id: the sales and commissions CSVs name the partner beside its id. */
export type PartnerNames = Map<number, string | null>

/** The sales CSV (docs/decisions.md, exports): one record per sale, newest first, with the partner's name. */
export function salesCsvText(rows: ExportedSale[], names: PartnerNames): string {
  return csvText(
    ['sale_id', 'created_at', 'transaction_id', 'customer_key', 'partner_id', 'partner_name', 'amount', 'currency', 'status', 'test_mode'],
    rows.map((s) => [
      s.id,
      iso(s.createdAt),
      s.transactionId,
      s.customerKey,
      s.partnerId,
      s.partnerId === null ? null : (names.get(s.partnerId) ?? null),
      amountCell(s.amountCents, s.currency),
      s.currency,
      s.status,
      s.testMode ? 'true' : 'false',
    ]),
  )
}

/**
 * The commissions CSV: one record per ledger entry (reversals negative, bonuses with no sale), with
 * its partner's name, status and flags, when it is due, and a bonus's description.
 */
export function commissionsCsvText(rows: Commission[], statuses: Map<number, string>, names: PartnerNames): string {
  return csvText(
    [
      'commission_id',
      'created_at',
      'kind',
      'partner_id',
      'partner_name',
      'sale_id',
      'amount',
      'currency',
      'status',
      'flags',
      'test_mode',
      'due_at',
      'description',
    ],
    rows.map((c) => [
      c.id,
      iso(c.createdAt),
      c.kind,
      c.partnerId,
      names.get(c.partnerId) ?? null,
      c.saleId,
      amountCell(c.amountCents, c.currency),
      c.currency,
      statuses.get(c.id) ?? null,
      // The fraud flags, space-separated (domain/fraud.ts); empty when none.
      c.flags.join(' '),
      c.testMode ? 'true' : 'false',
      iso(c.dueAt),
      c.description,
    ]),
  )
}

/**
 * The partners CSV: one record per partner, with how many links it has and its payout details;
 * its own terms (empty: its group's or the program's), its group, and the terms it is paid by
 * (partner → group → program, domain termsFor).
 */
export function partnersCsvText(rows: PartnerWithLinks[], program: Program, groups: PartnerGroup[]): string {
  const byId = new Map(groups.map((g) => [g.id, g]))
  return csvText(
    [
      'partner_id',
      'name',
      'email',
      'status',
      'links',
      'created_at',
      'commission_type',
      'commission_rate',
      'payout_method',
      'payout_details',
      'group_id',
      'group_name',
      'paid_commission_type',
      'paid_commission_rate',
      'paid_recurring_months',
      'paid_holding_period_days',
    ],
    rows.map((p) => [
      p.id,
      p.name,
      p.email,
      p.status,
      p.links,
      iso(p.createdAt),
      p.commissionType,
      p.commissionRate,
      p.payoutMethod,
      p.payoutDetails,
      ...paidTerms(p, program, p.groupId === null ? null : (byId.get(p.groupId) ?? null)),
    ]),
  )
}

function paidTerms(p: PartnerWithLinks, program: Program, group: PartnerGroup | null) {
  const terms = termsFor(program, p, group)
  return [
    group?.id ?? null,
    group?.name ?? null,
    terms.commissionType,
    terms.commissionRate,
    terms.recurringMonths,
    terms.holdingPeriodDays,
  ]
}
