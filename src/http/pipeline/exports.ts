import { commissionStatuses } from '../../tracking/commission-status.ts'
import type { Deps } from '../deps.ts'
import { commissionsCsvText, partnersCsvText, salesCsvText } from './csv.ts'
import { commissionStatusOf, partnerFilterOf, timeRangeOf } from './filters.ts'

export type ExportName = 'sales' | 'commissions' | 'partners'
type Query = Record<string, string | undefined>

/**
 * A program's sales, commissions or partners as CSV, every row the filters keep (docs/decisions.md,
 * exports): ?from= and ?to= for sales and commissions, ?status= for commissions and partners, ?q=
 * for partners. The operator API and the dashboard's download buttons answer the same text.
 */
export function exportCsv(deps: Deps, name: ExportName, programId: number, query: Query): string {
  const { lists, partners } = deps.database.stores
  if (name === 'partners') {
    const program = deps.database.stores.programs.findProgram(programId)!
    return partnersCsvText(partners.withLinks(programId, partnerFilterOf(query)), program, deps.database.stores.groups.list(programId))
  }
  const range = timeRangeOf(query)
  const names = new Map(deps.database.stores.dashboard.programPartners(programId).map((p) => [p.id, p.name]))
  if (name === 'sales') return salesCsvText(lists.exportSales(programId, range), names)
  const wanted = commissionStatusOf(query)
  const entries = lists.exportCommissions(programId, range)
  const statuses = commissionStatuses(
    deps,
    programId,
    entries.map((e) => e.id),
  )
  return commissionsCsvText(wanted === undefined ? entries : entries.filter((e) => statuses.get(e.id) === wanted), statuses, names)
}

/** The headers of a CSV download named after the program. */
export const csvHeaders = (name: string, programId: number) => ({
  'content-type': 'text/csv; charset=utf-8',
  'content-disposition': `attachment; filename="${name}-program-${programId}.csv"`,
})
