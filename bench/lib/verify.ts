/**
 * Correctness after load, so that a fast wrong server cannot pass: the service's SQLite file is
 * opened read-only once the service has stopped, and its rows are compared with the answers the
 * load generator counted. A timed run ends with up to one request per connection in flight: the
 * server records it but the generator no longer counts its answer, so rows may exceed the 2xx
 * answers by at most `inFlight` (connections × timed runs), never fall short of them.
 */
import { Database } from 'bun:sqlite'

export interface Check {
  name: string
  ok: boolean
  detail: string
}

function count(db: Database, sql: string): number {
  return (db.query(sql).get() as { n: number }).n
}

function withDb<T>(path: string, read: (db: Database) => T): T {
  const db = new Database(path, { readonly: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

const within = (rows: number, answered: number, inFlight: number) => rows >= answered && rows <= answered + inFlight
const rowsDetail = (rows: number, answered: number, inFlight: number) =>
  `${rows} rows, ${answered} answered 2xx, ${inFlight} at most in flight at the stops`

/** Every 2xx click is one row in clicks, and daily_counts counts every row. */
export function checkClicks(path: string, answered: number, inFlight: number): Check[] {
  return withDb(path, (db) => {
    const rows = count(db, 'SELECT count(*) AS n FROM clicks')
    // The store counts each batch's clicks before its COMMIT (src/db/tracking-store.ts): the rollup must equal the rows.
    const counted = count(db, 'SELECT coalesce(sum(clicks), 0) AS n FROM daily_counts')
    return [
      { name: 'clicks: every 2xx answer is a row', ok: within(rows, answered, inFlight), detail: rowsDetail(rows, answered, inFlight) },
      { name: 'clicks: daily_counts counts every row', ok: counted === rows, detail: `${counted} counted, ${rows} rows` },
    ]
  })
}

/**
 * Every 2xx sale is one row in sales, and only the benchmark's transaction_ids are; every sale has a distinct transaction_id
 * (the UNIQUE constraint); every sale is attributed to one of the prepared customers; percent
 * programs pay one commission per converted customer (first sale only) and no commission lacks its sale.
 */
export function checkSales(path: string, answered: number, inFlight: number, preparedCustomers: number): Check[] {
  return withDb(path, (db) => {
    const sales = count(db, "SELECT count(*) AS n FROM sales WHERE transaction_id LIKE 'bench-%'")
    const allSales = count(db, 'SELECT count(*) AS n FROM sales')
    const distinct = count(db, 'SELECT count(DISTINCT transaction_id) AS n FROM sales')
    const unattributed = count(db, 'SELECT count(*) AS n FROM sales WHERE customer_id IS NULL')
    const converted = count(db, "SELECT count(*) AS n FROM customers WHERE status = 'converted'")
    const commissions = count(db, "SELECT count(*) AS n FROM commissions WHERE kind = 'commission'")
    const orphans = count(db, 'SELECT count(*) AS n FROM commissions c LEFT JOIN sales s ON s.id = c.sale_id WHERE s.id IS NULL')
    const customers = count(db, 'SELECT count(*) AS n FROM customers')
    return [
      {
        name: 'sales: every 2xx answer is a row',
        ok: sales === allSales && within(sales, answered, inFlight),
        detail: rowsDetail(allSales, answered, inFlight),
      },
      { name: 'sales: transaction_id unique', ok: distinct === allSales, detail: `${distinct} distinct of ${allSales}` },
      {
        name: 'sales: all attributed to a prepared customer',
        ok: unattributed === 0 && customers === preparedCustomers,
        detail: `${unattributed} without customer; ${customers} customers, ${preparedCustomers} prepared`,
      },
      {
        name: 'commissions: one per converted customer (percent pays the first sale)',
        ok: commissions === converted && converted <= preparedCustomers && (answered === 0 || converted > 0),
        detail: `${commissions} commissions, ${converted} converted`,
      },
      { name: 'commissions: none without its sale', ok: orphans === 0, detail: `${orphans} orphans` },
    ]
  })
}
