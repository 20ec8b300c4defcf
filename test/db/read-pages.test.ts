// Issue 10: every operator read route's page comes from an index, whatever the program's size:
// its query searches an index on program_id that already yields id order (no sort of the
// program's rows, no scan of the table). Sales have no index by program (issue 14): their page
// reads id ranges of the table, one block at a time (test/db/sale-pages.test.ts). Checked on the
// SQL each route really runs.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startApi, type Api, type Fixture } from '../helpers.ts'

let api: Api
let f: Fixture
const statements: string[] = []

beforeAll(async () => {
  api = await startApi()
  f = await api.setupProgram()
  // A sale, so that the sales page reads a block of ids.
  api.server.deps.database.client
    .prepare(
      "INSERT INTO sales (program_id, transaction_id, amount_cents, currency, occurred_at, created_at) VALUES (?, 'read-pages', 100, 'USD', 0, 0)",
    )
    .run(f.programId)
  const client = api.server.deps.database.client as unknown as { prepare(sql: string): unknown }
  const prepare = client.prepare.bind(client)
  client.prepare = (sql: string) => {
    statements.push(sql)
    return prepare(sql)
  }
})
afterAll(() => api.stop())

const routes = ['partners', 'links', 'customers', 'sales', 'commissions', 'events', 'payouts']

test.each(routes)('GET /api/v1/admin/programs/:id/%s pages through an index, first page and later ones', async (route) => {
  for (const query of ['?limit=2', '?limit=2&cursor=1000000']) {
    statements.length = 0
    const reply = await api.admin('GET', `/programs/${f.programId}/${route}${query}`)
    expect(reply.status).toBe(200)
    const pages = statements.filter((sql) => /order by/i.test(sql))
    expect(pages.length).toBeGreaterThan(0)
    for (const sql of pages) {
      const plan = (api.server.deps.database.client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail)
      expect({ sql, plan }).toEqual({ sql, plan: expect.not.arrayContaining([expect.stringContaining('TEMP B-TREE')]) })
      const search =
        route === 'sales'
          ? /^SEARCH sales USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)$/
          : /^SEARCH \w+ USING (COVERING )?INDEX \w+ \(program_id=\?/
      expect({ sql, plan }).toEqual({ sql, plan: expect.arrayContaining([expect.stringMatching(search)]) })
    }
  }
})
