import type { ExportedSale } from '../../db/list-store.ts'
import type { PartnerWithLinks } from '../../db/partner-store.ts'
import type { CsvPayout } from '../../db/payout-store.ts'
import type { Commission } from '../../db/schema.ts'
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

/** The commissions CSV: one record per ledger entry (reversals negative), with its partner's name, status and flags. */
export function commissionsCsvText(rows: Commission[], statuses: Map<number, string>, names: PartnerNames): string {
  return csvText(
    ['commission_id', 'created_at', 'kind', 'partner_id', 'partner_name', 'sale_id', 'amount', 'currency', 'status', 'flags', 'test_mode'],
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
    ]),
  )
}

/** The partners CSV: one record per partner, with how many links it has and its payout details. */
export function partnersCsvText(rows: PartnerWithLinks[]): string {
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
    ]),
  )
}
