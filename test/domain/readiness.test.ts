import { describe, expect, test } from 'bun:test'
import { readinessChecks } from '../../src/domain/readiness.ts'

const none = { clicks: 0, leads: 0, provisional_leads: 0, sales: 0 }
const program = { id: 4, domain: 'shop.test', siteUrl: 'https://shop.test', allowedOrigins: ['http://localhost:5173'] }
const facts = (live = {}, test = {}, activeLinks = 0, processorEvents = 0, recentAddresses = { clicks: 0, distinct: [] as string[] }) => ({
  counts: { live: { ...none, ...live }, test: { ...none, ...test } },
  activeLinks,
  processorEvents,
  recentAddresses,
})
const check = (id: string, checks: ReturnType<typeof readinessChecks>) => checks.find((c) => c.id === id)

describe('readinessChecks', () => {
  test('a new program: every check in order, and what each one misses', () => {
    expect(readinessChecks(program, { rotateBy: null }, facts())).toEqual([
      { id: 'api_key', ok: true, message: 'The API key is valid.' },
      {
        id: 'browser_origins',
        ok: true,
        message: 'Browser calls are accepted from https://shop.test, https://*.shop.test, http://localhost:5173.',
      },
      { id: 'active_link', ok: false, message: 'No active referral link with a partner: create a partner and a link.' },
      { id: 'first_click', ok: false, message: 'No live click yet: load the tracker on a page opened with ?aff=<short_link>.' },
      { id: 'client_addresses', ok: true, message: "Clicks come from their visitors' own addresses." },
      { id: 'first_lead', ok: false, message: 'No live lead yet: report signups to POST /api/v1/track/lead.' },
      {
        id: 'first_sale',
        ok: false,
        message: 'No live sale yet: report payments to POST /api/v1/track/sale or connect the payment processor.',
      },
      { id: 'live_data', ok: false, message: 'No data yet.' },
    ])
  })

  test('a program with live data: every check passes', () => {
    const checks = readinessChecks(program, { rotateBy: null }, facts({ clicks: 1, leads: 1, sales: 1 }, {}, 2))
    expect(checks.map((c) => [c.id, c.ok])).toEqual([
      ['api_key', true],
      ['browser_origins', true],
      ['active_link', true],
      ['first_click', true],
      ['client_addresses', true],
      ['first_lead', true],
      ['first_sale', true],
      ['live_data', true],
    ])
    expect(checks.slice(2).map((c) => c.message)).toEqual([
      '2 active partner links.',
      'Clicks received.',
      "Clicks come from their visitors' own addresses.",
      'Leads received.',
      'Sales or payment-processor events received.',
      'Live data is flowing.',
    ])
  })

  test('a key marked for rotation says until when and how to regenerate it', () => {
    expect(check('api_key', readinessChecks(program, { rotateBy: Date.parse('2026-07-01T00:00:00Z') }, facts()))).toEqual({
      id: 'api_key',
      ok: false,
      message:
        'The API key is marked for rotation and stops working at 2026-07-01T00:00:00.000Z; regenerate it: POST /api/v1/admin/programs/4/api-key (operator API).',
    })
  })

  test('only provisional leads, a processor event without a sale, a single kind of live data, test data only, no domain', () => {
    expect(check('first_lead', readinessChecks(program, { rotateBy: null }, facts({ provisional_leads: 1 })))).toEqual({
      id: 'first_lead',
      ok: false,
      message: 'Only provisional (browser-mode) leads: report signups from the server with the API key.',
    })
    expect(check('first_sale', readinessChecks(program, { rotateBy: null }, facts({}, {}, 0, 1)))?.ok).toBe(true)
    for (const live of [{ clicks: 1 }, { leads: 1 }, { sales: 1 }]) {
      expect(check('live_data', readinessChecks(program, { rotateBy: null }, facts(live)))?.ok).toBe(true)
    }
    for (const test of [{ clicks: 1 }, { leads: 1 }, { sales: 1 }]) {
      expect(check('live_data', readinessChecks(program, { rotateBy: null }, facts({}, test)))).toEqual({
        id: 'live_data',
        ok: false,
        message: 'Only test-mode data so far.',
      })
    }
    expect(check('browser_origins', readinessChecks({ ...program, domain: '', siteUrl: null }, { rotateBy: null }, facts()))?.ok).toBe(
      false,
    )
  })

  test("browser origins: the site's own origin, scheme and port kept, is accepted", () => {
    const local = { ...program, domain: 'localhost', siteUrl: 'http://localhost:3901', allowedOrigins: [] }
    expect(check('browser_origins', readinessChecks(local, { rotateBy: null }, facts()))).toEqual({
      id: 'browser_origins',
      ok: true,
      message: 'Browser calls are accepted from http://localhost:3901, https://localhost, https://*.localhost.',
    })
    expect(check('active_link', readinessChecks(program, { rotateBy: null }, facts({}, {}, 1)))?.message).toBe('1 active partner link.')
  })

  test('one address for every visitor: a warning once at least 10 of the latest clicks came from one loopback or private address', () => {
    const warn = (clicks: number, distinct: string[]) =>
      check('client_addresses', readinessChecks(program, { rotateBy: null }, facts({}, {}, 0, 0, { clicks, distinct })))
    for (const ip of ['127.0.0.1', '::1', '10.0.0.2', '192.168.1.9']) {
      expect(warn(100, [ip])).toEqual({
        id: 'client_addresses',
        ok: true,
        message: `Warning: every visitor has one address: set TRUST_PROXY (the last 100 clicks all came from ${ip}; behind a proxy, svc sees the proxy, not its visitors).`,
      })
    }
    expect(warn(10, ['127.0.0.1'])?.message).toStartWith('Warning')
    expect(warn(9, ['127.0.0.1'])?.message).not.toStartWith('Warning')
    expect(warn(100, ['203.0.113.7'])?.message).not.toStartWith('Warning')
    expect(warn(100, ['127.0.0.1', '127.0.0.2'])?.message).not.toStartWith('Warning')
  })
})
