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
