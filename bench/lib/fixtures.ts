/**
 * Benchmark fixtures made the way an operator and an advertiser would: the operator API for
 * accounts, programs, partners and links, then real clicks and server-mode leads for the sale run.
 */

export interface ProgramFixture {
  programId: number
  apiKey: string
  shortLinks: string[]
  /** customer_keys with a click and a server-mode lead recorded (sale runs only). */
  customerKeys: string[]
}

/** A different private (10/8) client address for each n up to 16.7 million, sent as X-Forwarded-For. */
export const visitorIp = (n: number) => `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`

async function call(base: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: any }> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  let json: any = null
  try {
    json = JSON.parse(text)
  } catch {
    /* reported below */
  }
  return { status: response.status, json: json ?? text }
}

async function admin(base: string, token: string, path: string, body: unknown): Promise<any> {
  const { status, json } = await call(base, `/api/v1/admin${path}`, body, { authorization: `Bearer ${token}` })
  if (status >= 300 || !json?.data) throw new Error(`POST /api/v1/admin${path} answered ${status}: ${JSON.stringify(json)}`)
  return json.data
}

/** Runs `task` for 0..count-1 with at most `width` in flight (bounded: count tasks, no retries). */
export async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < count) await task(next++)
  }
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker))
}

/**
 * One account and `programs` programs, each with one partner and `linksPer` links named
 * `<tag>p<i>l<j>`. Returns the programs with their keys and short links.
 */
export async function createPrograms(
  base: string,
  token: string,
  tag: string,
  programs: number,
  linksPer: number,
): Promise<ProgramFixture[]> {
  const account = await admin(base, token, '/accounts', { email: `bench-${tag}@shop.test` })
  const out: ProgramFixture[] = new Array(programs)
  await inParallel(programs, 8, async (i) => {
    const program = await admin(base, token, '/programs', {
      account_id: account.account_id,
      name: `Bench ${tag} ${i}`,
      domain: 'shop.test',
      // BENCH_COMMISSION_TYPE=recurring_percent: every sale earns (a commission and its chain link).
      commission_type: process.env.BENCH_COMMISSION_TYPE ?? 'percent',
      commission_rate: 10,
    })
    const partner = await admin(base, token, `/programs/${program.program_id}/partners`, { name: `Partner ${i}` })
    const shortLinks: string[] = []
    for (let j = 0; j < linksPer; j++) {
      const shortLink = `${tag}p${i}l${j}`
      await admin(base, token, `/programs/${program.program_id}/links`, { partner_id: partner.partner_id, short_link: shortLink })
      shortLinks.push(shortLink)
    }
    out[i] = { programId: program.program_id, apiKey: program.api_key, shortLinks, customerKeys: [] }
  })
  return out
}

/**
 * Prepares `perProgram` customers for each program: a click (own visitor IP) then a server-mode
 * lead with the program's key. Returns how many clicks and leads were recorded.
 */
export async function prepareCustomers(
  base: string,
  programs: ProgramFixture[],
  perProgram: number,
  ipOffset: number,
): Promise<{ clicks: number; leads: number }> {
  let clicks = 0
  let leads = 0
  await inParallel(programs.length * perProgram, 16, async (n) => {
    const program = programs[n % programs.length]
    const ip = visitorIp(ipOffset + n)
    const click = await call(
      base,
      '/api/v1/track/click',
      { affiliate_url: `https://shop.test/?aff=${program.shortLinks[0]}` },
      { 'x-forwarded-for': ip },
    )
    if (click.status !== 200 || typeof click.json?.click_id !== 'string')
      throw new Error(`prepare click answered ${click.status}: ${JSON.stringify(click.json)}`)
    clicks++
    const customerKey = `cust-${program.programId}-${n}`
    const lead = await call(
      base,
      '/api/v1/track/lead',
      { click_id: click.json.click_id, customer_key: customerKey },
      { authorization: `Bearer ${program.apiKey}`, 'x-forwarded-for': ip },
    )
    if (lead.status >= 300) throw new Error(`prepare lead answered ${lead.status}: ${JSON.stringify(lead.json)}`)
    leads++
    program.customerKeys.push(customerKey)
  })
  return { clicks, leads }
}

/** One POST with JSON, for probes and the flood's warm-up. */
export const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) => call(base, path, body, headers)
