import { isPrivateAddress } from './address.ts'
import { isLoopback } from './network.ts'
import { originAccepted, siteUrlOf } from './site.ts'
import { iso } from './time.ts'

/** What the checklist reads of a program (its row, structurally). */
interface ReadinessProgram {
  id: number
  domain: string
  siteUrl: string | null
  allowedOrigins: string[]
}

/** The addresses of the program's latest live clicks (at most 100): how many, and up to two distinct ones. */
export interface RecentAddresses {
  clicks: number
  distinct: string[]
}

/** Fewer clicks than this say nothing about the addresses visitors come from. */
const ONE_ADDRESS_MIN_CLICKS = 10

/**
 * The one-address check (docs/decisions.md, The first hour): when the latest clicks all came from
 * one loopback or private address, the server sees its proxy, not its visitors (TRUST_PROXY is
 * unset), and same_ip would hold every commission. Stays ok: the warning is in its words.
 */
function addressesCheck(recent: RecentAddresses): Check {
  const [only] = recent.distinct
  const one = recent.clicks >= ONE_ADDRESS_MIN_CLICKS && recent.distinct.length === 1 && only !== undefined
  if (one && (isLoopback(only) || isPrivateAddress(only))) {
    return {
      id: 'client_addresses',
      ok: true,
      message: `Warning: every visitor has one address: set TRUST_PROXY (the last ${recent.clicks} clicks all came from ${only}; behind a proxy, svc sees the proxy, not its visitors).`,
    }
  }
  return { id: 'client_addresses', ok: true, message: "Clicks come from their visitors' own addresses." }
}

/** One mode's counts, as the count store reports them. */
interface ModeCounts {
  clicks: number
  leads: number
  provisional_leads: number
  sales: number
}

/** The program's facts the checklist is decided from (the count store's readinessFacts). */
interface ReadinessFacts {
  counts: { live: ModeCounts; test: ModeCounts }
  activeLinks: number
  processorEvents: number
  recentAddresses: RecentAddresses
}

interface Check {
  id: string
  ok: boolean
  message: string
}

/** The checklist of GET /api/v1/programs/me/readiness, in the order an integration gets through it. */
export function readinessChecks(program: ReadinessProgram, key: { rotateBy: number | null }, facts: ReadinessFacts): Check[] {
  const { live, test } = facts.counts
  const site = siteUrlOf(program)
  const origins = [...new Set([site, `https://${program.domain}`, `https://*.${program.domain}`, ...program.allowedOrigins])]
  const siteAccepted = originAccepted(program, site)
  return [
    key.rotateBy === null
      ? { id: 'api_key', ok: true, message: 'The API key is valid.' }
      : {
          id: 'api_key',
          ok: false,
          message: `The API key is marked for rotation and stops working at ${iso(key.rotateBy)}; regenerate it: POST /api/v1/admin/programs/${program.id}/api-key (operator API).`,
        },
    {
      id: 'browser_origins',
      ok: siteAccepted,
      message: siteAccepted
        ? `Browser calls are accepted from ${origins.join(', ')}.`
        : `The site ${site} is not an accepted browser origin: set the program's domain to its URL (for example http://localhost:3901).`,
    },
    facts.activeLinks > 0
      ? { id: 'active_link', ok: true, message: `${facts.activeLinks} active partner ${facts.activeLinks === 1 ? 'link' : 'links'}.` }
      : { id: 'active_link', ok: false, message: 'No active referral link with a partner: create a partner and a link.' },
    {
      id: 'first_click',
      ok: live.clicks > 0,
      message: live.clicks > 0 ? 'Clicks received.' : 'No live click yet: load the tracker on a page opened with ?aff=<short_link>.',
    },
    addressesCheck(facts.recentAddresses),
    {
      id: 'first_lead',
      ok: live.leads > 0,
      message:
        live.leads > 0
          ? 'Leads received.'
          : live.provisional_leads > 0
            ? 'Only provisional (browser-mode) leads: report signups from the server with the API key.'
            : 'No live lead yet: report signups to POST /api/v1/track/lead.',
    },
    {
      id: 'first_sale',
      ok: live.sales > 0 || facts.processorEvents > 0,
      message:
        live.sales > 0 || facts.processorEvents > 0
          ? 'Sales or payment-processor events received.'
          : 'No live sale yet: report payments to POST /api/v1/track/sale or connect the payment processor.',
    },
    {
      id: 'live_data',
      ok: live.clicks + live.leads + live.sales > 0,
      message:
        live.clicks + live.leads + live.sales > 0
          ? 'Live data is flowing.'
          : test.clicks + test.leads + test.sales > 0
            ? 'Only test-mode data so far.'
            : 'No data yet.',
    },
  ]
}
