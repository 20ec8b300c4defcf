/** The printed table: figures, ratios to the ceilings, targets and verdicts. */
import type { LoadResult } from './load.ts'

export interface Row {
  name: string
  result: LoadResult | null
  /** Why the row has no figures (endpoint missing, failed start…). */
  skipped?: string
  ratios?: string
  target?: string
  pass?: boolean | null
  rssMb?: number | null
}

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–'

/** "429×12,345" style summary of the non-2xx answers of a run. */
export function nonOk(result: LoadResult): string {
  const codes = Object.entries(result.statuses).filter(([code]) => !code.startsWith('2'))
  const parts = codes.map(([code, n]) => `${code}×${fmt(n)}`)
  if (result.errors) parts.push(`errors×${fmt(result.errors)}`)
  if (result.timeouts) parts.push(`timeouts×${fmt(result.timeouts)}`)
  return parts.length ? parts.join(' ') : '0'
}

export const ratio = (a: LoadResult | null, b: LoadResult | null) => (a && b && b.rps > 0 ? a.rps / b.rps : NaN)
export const pct = (value: number) => (Number.isFinite(value) ? `${Math.round(value * 100)}%` : '–')

/** Prints the rows as a Markdown table (pasteable into bench/README.md). */
export function printTable(rows: Row[]): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req (system)', '2xx', 'non-2xx', 'ratios', 'RSS MB', 'target', 'verdict']
  const lines = rows.map((row) => {
    const r = row.result
    const verdict = row.pass === undefined || row.pass === null ? '' : row.pass ? 'PASS' : 'MISS'
    const rss = row.rssMb === undefined || row.rssMb === null ? '' : fmt(row.rssMb, 1)
    if (!r) return [row.name, '–', '–', '–', '–', '–', '–', row.skipped ?? '', rss, row.target ?? '', row.skipped ? 'SKIPPED' : verdict]
    return [
      row.name,
      fmt(r.rps),
      fmt(r.p50, 2),
      fmt(r.p99, 2),
      r.cpuUs === undefined ? '–' : `${fmt(r.cpuUs, 1)} (${fmt(r.systemUs ?? 0, 1)})`,
      fmt(r.ok2xx),
      nonOk(r),
      row.ratios ?? '',
      rss,
      row.target ?? '',
      verdict,
    ]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)))
  const print = (cells: string[]) => console.log(`| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`)
  print(header)
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const line of lines) print(line as string[])
}
