/**
 * The files the providers' bulk upload takes (docs/payouts.md, Files; docs/decisions.md, Paying
 * partners): PayPal Payouts (no header row, one currency a file) and Wise batch (its header).
 * Pure: payouts and their partners in, the file's text out.
 */
import type { CsvPayout } from '../db/payout-store.ts'
import { payout as payoutMessages } from '../domain/messages.ts'
import { formatAmount } from '../domain/payout.ts'
import { csvLine, csvText } from '../http/pipeline/csv.ts'

const PAYOUT_FILE_FORMATS = ['paypal', 'wise'] as const
export type PayoutFileFormat = (typeof PAYOUT_FILE_FORMATS)[number]

/** The Wise batch template's header (wise.com, "Batch payments": the CSV template, email recipients). */
const WISE_HEADER = [
  'name',
  'recipientEmail',
  'paymentReference',
  'receiverType',
  'amountCurrency',
  'amount',
  'sourceCurrency',
  'targetCurrency',
]

/** What a file of `format` holds: the pending payouts whose partner is paid by that method and gave details. */
export const payableBy = (format: PayoutFileFormat, rows: CsvPayout[]): CsvPayout[] =>
  rows.filter((p) => p.status === 'pending' && p.payoutMethod === format && p.payoutDetails)

/**
 * The file's text. PayPal Payouts (developer.paypal.com, "Payouts Web": the CSV format): recipient
 * email, amount in major units, currency, a unique id (`payout_<id>`: PayPal refuses a repeated
 * one), a note; no header row, CRLF. Wise batch: its header, then one `PERSON` paid in the payout's
 * currency both sides (`amountCurrency` target: the partner receives exactly the amount).
 */
function payoutFileText(format: PayoutFileFormat, rows: CsvPayout[], programName: string): string {
  if (format === 'paypal') {
    const lines = rows.map((p) =>
      csvLine([
        p.payoutDetails,
        { number: formatAmount(p.amountCents, p.currency) },
        p.currency,
        `payout_${p.id}`,
        `${programName} payout ${p.id}`,
      ]),
    )
    return lines.map((line) => `${line}\r\n`).join('')
  }
  return csvText(
    WISE_HEADER,
    rows.map((p) => [
      p.partnerName ?? `Partner ${p.partnerId}`,
      p.payoutDetails,
      `payout ${p.id}`,
      'PERSON',
      'target',
      { number: formatAmount(p.amountCents, p.currency) },
      p.currency,
      p.currency,
    ]),
  )
}

/** The currencies of the rows, sorted: a PayPal file holds one (PayPal's rule), picked by `&currency=`. */
export const currenciesOf = (rows: CsvPayout[]) => [...new Set(rows.map((r) => r.currency))].sort()

/**
 * The file of `format` for the program's pending payouts, or the 400 message that refuses it:
 * `currency` keeps one currency; a PayPal file without it whose payouts are in several currencies
 * is refused naming `currency`.
 */
export function payoutFile(
  rows: CsvPayout[],
  programName: string,
  format: string,
  currency: string | undefined,
): { text: string; filename: string } | { refused: string } {
  if (!(PAYOUT_FILE_FORMATS as readonly string[]).includes(format)) return { refused: payoutMessages.fileFormat }
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) return { refused: payoutMessages.fileCurrency }
  const chosen = payableBy(format as PayoutFileFormat, rows).filter((p) => currency === undefined || p.currency === currency)
  const found = currenciesOf(chosen)
  if (format === 'paypal' && found.length > 1) return { refused: payoutMessages.fileCurrencies(found) }
  // Named by its currency when it holds one; a Wise file of several currencies is named by none.
  const suffix = currency ?? (found.length === 1 ? found[0] : found.length === 0 ? 'none' : null)
  const filename = `${format}-payouts${suffix ? `-${suffix}` : ''}.csv`
  return { text: payoutFileText(format as PayoutFileFormat, chosen.reverse(), programName), filename }
}
