import type { CsvPayout } from '../../db/payout-store.ts'
import { formatAmount } from '../../domain/payout.ts'

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A text that a
 * spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return)
 * is prefixed with a single quote, so that an imported partner name never becomes a formula.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV record, without its line ending. */
export function csvLine(values: (string | number | null)[]): string {
  return values.map(csvCell).join(',')
}

const PAYOUT_CSV_HEADER = ['payout_id', 'partner_id', 'partner_name', 'partner_email', 'currency', 'amount', 'commissions', 'status']

/**
 * The payouts CSV for batch payment tools (docs/payouts.md): a header row, then one record per
 * payout with its amount in major units; CRLF line endings. Served by the operator API and by the
 * dashboard's download link.
 */
export function payoutsCsvText(rows: CsvPayout[]): string {
  const lines = rows.map((p) =>
    csvLine([
      p.id,
      p.partnerId,
      p.partnerName,
      p.partnerEmail,
      p.currency,
      formatAmount(p.amountCents, p.currency),
      p.commissions,
      p.status,
    ]),
  )
  return [csvLine(PAYOUT_CSV_HEADER), ...lines].join('\r\n') + '\r\n'
}
