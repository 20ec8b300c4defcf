import type { Database } from './open'

export interface ModeCounts {
  clicks: number
  leads: number
  provisional_leads: number
  sales: number
}

export interface ReadinessFacts {
  activeLinks: number
  live: ModeCounts
  test: ModeCounts
  processorEvents: number
}

const zero = (): ModeCounts => ({ clicks: 0, leads: 0, provisional_leads: 0, sales: 0 })

// One grouped count per table; readiness is rate limited (30/min) so no counters are kept.
const QUERIES: [keyof ModeCounts, string][] = [
  ['clicks', 'SELECT test_mode AS t, count(*) AS n FROM clicks WHERE program_id = ? GROUP BY test_mode'],
  ['leads', "SELECT test_mode AS t, count(*) AS n FROM customers WHERE program_id = ? AND status <> 'provisional' GROUP BY test_mode"],
  ['provisional_leads', "SELECT test_mode AS t, count(*) AS n FROM customers WHERE program_id = ? AND status = 'provisional' GROUP BY test_mode"],
  ['sales', 'SELECT test_mode AS t, count(*) AS n FROM sales WHERE program_id = ? GROUP BY test_mode'],
]

/** The facts of a program's readiness check: its active partner links and its live and test records. */
export function readinessFacts(database: Database, programId: number): ReadinessFacts {
  const { client } = database
  const facts: ReadinessFacts = { activeLinks: 0, live: zero(), test: zero(), processorEvents: 0 }
  for (const [name, query] of QUERIES) {
    for (const row of client.prepare(query).all(programId) as { t: number; n: number }[]) {
      facts[row.t ? 'test' : 'live'][name] = row.n
    }
  }
  const one = (query: string) => (client.prepare(query).get(programId) as { n: number }).n
  // The synthetic chain's own link (test_fixtures) is not a partner's: it never makes a program ready.
  facts.activeLinks = one(`SELECT count(*) AS n FROM links l WHERE l.program_id = ?1 AND l.active = 1 AND l.partner_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM test_fixtures f WHERE f.program_id = ?1 AND f.link_id = l.id)`)
  facts.processorEvents = one('SELECT count(*) AS n FROM processor_events WHERE program_id = ?')
  return facts
}
