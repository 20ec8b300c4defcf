// /openapi.json as a client's tooling reads it: Redocly's linter finds no error, openapi-typescript
// types every operation's answers with integers as numbers, and real answers match the document.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApi, type Api } from '../../helpers.ts'

const ROOT = join(import.meta.dir, '../../..')
let api: Api
let doc: any
let file: string

beforeAll(async () => {
  api = await startApi({ env: { PUBLIC_BASE_URL: 'https://svc.shop.test' } })
  doc = (await api.call('GET', '/openapi.json')).body
  file = join(mkdtempSync(join(tmpdir(), 'svc-openapi-')), 'openapi.json')
  writeFileSync(file, JSON.stringify(doc, null, 2))
})
afterAll(() => api.stop())

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  )

function run(command: string[]): { code: number; out: string; stdout: string } {
  const child = Bun.spawnSync(command, {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  })
  return { code: child.exitCode, out: child.stdout.toString() + child.stderr.toString(), stdout: child.stdout.toString() }
}

describe('/openapi.json', () => {
  test('every operation has an operationId, a credential (or none, said explicitly), a success and an error answer', () => {
    const ids = new Set<string>()
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`
      expect(typeof op.operationId, where).toBe('string')
      expect(ids.has(op.operationId), where).toBe(false)
      ids.add(op.operationId)
      expect(Array.isArray(op.security), where).toBe(true)
      const statuses = Object.keys(op.responses)
      expect(statuses.some((s) => /^[2]/.test(s)) || path === '/api/v1/cli/stripe-connect', where).toBe(true)
      if (path !== '/tracker.js')
        expect(
          statuses.some((s) => /^4/.test(s)),
          where,
        ).toBe(true)
    }
    expect(ids.size).toBeGreaterThanOrEqual(36)
  })

  test('the read routes take limit and cursor and answer next_cursor', () => {
    const list = doc.paths['/api/v1/admin/programs/{id}/commissions'].get
    expect(list.parameters.map((p: any) => p.name)).toEqual(['id', 'limit', 'cursor'])
    expect(list.parameters[1].schema.type).toBe('integer')
    expect(list.responses[200].content['application/json'].schema.properties.next_cursor).toBeDefined()
  })

  test('redocly lint: no error; the only warnings are the two operations without a 4xx or a 2xx by design', () => {
    const { code, stdout } = run(['node_modules/.bin/redocly', 'lint', file, '--format=json'])
    const report = JSON.parse(stdout.slice(stdout.indexOf('{\n')))
    const problems = report.problems.map((p: any) => `${p.severity} ${p.ruleId} ${p.location[0].pointer}`)
    expect(problems.filter((p: string) => p.startsWith('error'))).toEqual([])
    expect(problems.sort()).toEqual([
      'warn operation-2xx-response #/paths/~1api~1v1~1cli~1stripe-connect/post/responses',
      'warn operation-4xx-response #/paths/~1tracker.js/get/responses',
    ])
    expect(code).toBe(0)
  }, 60_000)

  test('openapi-typescript: every operation has typed responses and integers are numbers', () => {
    const out = `${file}.d.ts`
    expect(run(['node_modules/.bin/openapi-typescript', file, '-o', out]).code).toBe(0)
    const types = readFileSync(out, 'utf8')
    for (const { op } of operations()) {
      const block = types.slice(types.indexOf(`\n  ${op.operationId}: {`))
      const body = block.slice(0, block.indexOf('\n  };'))
      expect(body, op.operationId).toContain('responses: {')
      // 202: a send of payouts and an import are accepted and run in the background.
      expect(body, op.operationId).toMatch(/\n {6}(200|201|202|410): \{/)
    }
    // Integers come out as number; the only string | number fields are the two that accept both.
    expect(types).toMatch(/amount_cents: number;/)
    expect(types).toMatch(/cookie_window_days: number;/)
    const mixed = [...types.matchAll(/(\w+)\??: (string \| number|number \| string);/g)].map((m) => m[1])
    expect([...new Set(mixed)].sort()).toEqual(['customer_key', 'program_id'])
  }, 60_000)
})

/** A small JSON Schema check for the keywords the document uses; objects accept no undocumented field. */
function problems(schema: any, value: unknown, at = '$'): string[] {
  if (schema.$ref) return problems(doc.components.schemas[schema.$ref.split('/').pop()], value, at)
  if (schema.allOf) {
    const merged = { type: 'object', properties: {}, required: [] as string[] }
    for (const part of schema.allOf.map((s: any) => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s))) {
      Object.assign(merged.properties, part.properties)
      merged.required.push(...(part.required ?? []))
    }
    return problems(merged, value, at)
  }
  if (schema.anyOf || schema.oneOf) {
    const options = (schema.anyOf ?? schema.oneOf).map((s: any) => problems(s, value, at))
    return options.some((p: string[]) => p.length === 0) ? [] : options.flat()
  }
  if ('const' in schema && value !== schema.const) return [`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`]
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in enum`]
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value
  if (schema.type && !(schema.type === type || (schema.type === 'number' && type === 'integer')))
    return [`${at}: ${type}, expected ${schema.type}`]
  if (type === 'array' && schema.items) return (value as unknown[]).flatMap((v, i) => problems(schema.items, v, `${at}[${i}]`))
  if (type === 'object' && schema.properties) {
    const record = value as Record<string, unknown>
    const out = (schema.required ?? []).filter((k: string) => !(k in record)).map((k: string) => `${at}.${k} missing`)
    for (const [key, inner] of Object.entries(record)) {
      if (!schema.properties[key]) {
        if (schema.additionalProperties !== true) out.push(`${at}.${key} undocumented`)
      } else out.push(...problems(schema.properties[key], inner, `${at}.${key}`))
    }
    return out
  }
  return []
}

describe('real answers match the document', () => {
  async function expectDocumented(method: string, path: string, template: string, options: Parameters<Api['call']>[2] = {}) {
    const reply = await api.call(method, path, options)
    const op = doc.paths[template][method.toLowerCase()]
    const response = op.responses[reply.status]
    expect(response, `${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`).toBeDefined()
    expect(problems(response.content['application/json'].schema, reply.body), `${method} ${path} ${reply.status}`).toEqual([])
    return reply
  }

  test('the operator API, click, lead, sale, refund, readiness and the CLI status, and their errors', async () => {
    const f = await api.setupProgram()
    const key = { token: f.apiKey }
    await expectDocumented('POST', '/api/v1/admin/accounts', '/api/v1/admin/accounts', {
      body: { email: 'x@shop.test' },
      token: 'test-admin-token-0123456789',
    })
    const admin = { token: 'test-admin-token-0123456789' }
    await expectDocumented('POST', '/api/v1/admin/accounts', '/api/v1/admin/accounts', { body: { email: 'nope' }, ...admin })
    await expectDocumented('GET', '/api/v1/admin/programs', '/api/v1/admin/programs', { token: 'wrong-token-wrong-token' })
    const origin = { headers: { origin: 'https://shop.test' } }
    const click = await expectDocumented('POST', '/api/v1/track/click', '/api/v1/track/click', {
      body: { affiliate_url: `https://shop.test/?aff=${f.shortLink}` },
      ...origin,
    })
    await expectDocumented('POST', '/api/v1/track/click', '/api/v1/track/click', {
      body: { affiliate_url: 'https://shop.test/?aff=none' },
      ...origin,
    })
    await expectDocumented('POST', '/api/v1/track/lead', '/api/v1/track/lead', {
      body: { click_id: click.body.click_id, customer_key: 'c1' },
      ...key,
    })
    await expectDocumented('POST', '/api/v1/track/lead', '/api/v1/track/lead', { body: {}, ...key })
    const sale = await expectDocumented('POST', '/api/v1/track/sale', '/api/v1/track/sale', {
      body: { transaction_id: 'in_1', amount_cents: 4900, customer_key: 'c1' },
      ...key,
    })
    expect(sale.status).toBe(200)
    await expectDocumented('POST', '/api/v1/track/sale', '/api/v1/track/sale', {
      body: { transaction_id: 'in_1', amount_cents: 4900, customer_key: 'c1' },
      ...key,
    })
    await expectDocumented('POST', '/api/v1/track/sale', '/api/v1/track/sale', {
      body: { transaction_id: 'in_2', amount_cents: 1, currency: 'GBP', customer_key: 'c1' },
      ...key,
    })
    await expectDocumented('POST', '/api/v1/track/sale', '/api/v1/track/sale', { body: { amount_cents: 1 }, token: 'nope' })
    await expectDocumented('POST', '/api/v1/track/refund', '/api/v1/track/refund', { body: { transaction_id: 'in_1' }, ...key })
    await expectDocumented('POST', '/api/v1/track/refund', '/api/v1/track/refund', { body: { transaction_id: 'in_9' }, ...key })
    await expectDocumented('GET', '/api/v1/programs/me/readiness', '/api/v1/programs/me/readiness', key)
    await expectDocumented('GET', '/api/v1/programs/me/readiness', '/api/v1/programs/me/readiness', { token: 'nope' })
    await expectDocumented('GET', '/api/v1/cli/status', '/api/v1/cli/status', key)
    await expectDocumented('POST', '/api/v1/cli/stripe-connect', '/api/v1/cli/stripe-connect')
    const p = `/api/v1/admin/programs/${f.programId}`
    await expectDocumented('GET', p, '/api/v1/admin/programs/{id}', admin)
    await expectDocumented('GET', '/api/v1/admin/programs', '/api/v1/admin/programs', admin)
    for (const list of ['partners', 'links', 'customers', 'sales', 'commissions', 'events']) {
      await expectDocumented('GET', `${p}/${list}?limit=1`, `/api/v1/admin/programs/{id}/${list}`, admin)
    }
    await expectDocumented('GET', `${p}/sales?limit=0`, '/api/v1/admin/programs/{id}/sales', admin)
    await expectDocumented('GET', `/api/v1/admin/sales/${sale.body.data.sale_id}`, '/api/v1/admin/sales/{id}', admin)
    await expectDocumented('POST', `${p}/api-key/rotation`, '/api/v1/admin/programs/{id}/api-key/rotation', {
      body: { rotate_by: '2020-01-01' },
      ...admin,
    })
    await expectDocumented('POST', '/api/v1/track/sale', '/api/v1/track/sale', {
      body: { transaction_id: 'in_3', amount_cents: 1 },
      ...key,
    })
    await expectDocumented('GET', '/api/v1/programs/me/readiness', '/api/v1/programs/me/readiness', key)
    await expectDocumented('POST', '/api/v1/cli/auth/start', '/api/v1/cli/auth/start')
    await expectDocumented('GET', '/api/v1/cli/auth/poll?state=nope', '/api/v1/cli/auth/poll')
  })

  test('payouts: run, list, detail, paid, cancel refused', async () => {
    const f = await api.setupProgram()
    const admin = { token: 'test-admin-token-0123456789' }
    const click = await api.call('POST', '/api/v1/track/click', { body: { affiliate_url: `https://shop.test/?aff=${f.shortLink}` } })
    await api.call('POST', '/api/v1/track/lead', { body: { click_id: click.body.click_id, customer_key: 'p1' }, token: f.apiKey })
    await api.call('POST', '/api/v1/track/sale', {
      body: { transaction_id: `po_${f.programId}`, amount_cents: 10_000, customer_key: 'p1' },
      token: f.apiKey,
    })
    api.clock.advance(31 * 86_400_000)
    const p = `/api/v1/admin/programs/${f.programId}`
    await expectDocumented('GET', `${p}/commissions`, '/api/v1/admin/programs/{id}/commissions', admin)
    const run = await expectDocumented('POST', `${p}/payouts`, '/api/v1/admin/programs/{id}/payouts', { body: {}, ...admin })
    expect(run.body.data).toHaveLength(1)
    const id = run.body.data[0].payout_id
    await expectDocumented('POST', `${p}/payouts`, '/api/v1/admin/programs/{id}/payouts', { body: { until: 'soon' }, ...admin })
    await expectDocumented('GET', `${p}/payouts`, '/api/v1/admin/programs/{id}/payouts', admin)
    await expectDocumented('GET', `/api/v1/admin/payouts/${id}`, '/api/v1/admin/payouts/{id}', admin)
    await expectDocumented('POST', `/api/v1/admin/payouts/${id}/paid`, '/api/v1/admin/payouts/{id}/paid', {
      body: { reference: 'r1' },
      ...admin,
    })
    await expectDocumented('POST', `/api/v1/admin/payouts/${id}/cancel`, '/api/v1/admin/payouts/{id}/cancel', admin)
    const csv = await api.call('GET', `${p}/payouts.csv`, admin)
    expect(Object.keys(doc.paths['/api/v1/admin/programs/{id}/payouts.csv'].get.responses[csv.status].content)).toEqual(['text/csv'])
  })
})
