// The example advertiser site: two static pages carrying the tracker, and two backend
// routes that report the lead and the sale with the server client. It is documentation
// and the browser tests' fixture. Run from the repository (examples/shop/README.md):
//   SVC_URL=... SVC_API_KEY=... SVC_PROGRAM_ID=... [SVC_ADMIN_TOKEN=...] npm run shop
import { join } from 'node:path'
import { Svc, readClickId } from '../../src/client/server.ts'

export type ShopOptions = {
  svcUrl: string
  apiKey: string
  programId: number
  port?: number
  /** PEM certificate and key: serve over HTTPS. */
  tls?: { cert: string; key: string }
}

const pages: Record<string, string> = { '/': 'index.html', '/signup': 'signup.html' }

/**
 * Starts the shop on 127.0.0.1; any host name that resolves there (www/app.shop.test) works.
 * The options are read per request, so a test may fill in the service after learning the port.
 */
export function startShop(o: ShopOptions) {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: o.port ?? 0,
    tls: o.tls,
    async fetch(req) {
      const { pathname } = new URL(req.url)
      const page = pages[pathname]
      if (page && req.method === 'GET') {
        const html = (await Bun.file(join(import.meta.dir, 'public', page)).text())
          .replaceAll('%SVC_URL%', o.svcUrl)
          .replaceAll('%PROGRAM_ID%', String(o.programId))
        return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      }
      if (req.method !== 'POST') return new Response('Not found', { status: 404 })
      const svc = new Svc({ apiKey: o.apiKey, baseUrl: o.svcUrl })
      const body = await req.json()
      if (pathname === '/api/signup') {
        // Prefer the cookie: it is what a framework server sees without client code.
        const clickId = readClickId(req) ?? body.clickId ?? null
        const result = await svc.trackLead({ customerExternalId: body.customerId, clickId, email: body.email || undefined })
        return Response.json(result)
      }
      if (pathname === '/api/checkout') {
        const result = await svc.trackSale({ customerExternalId: body.customerId, amount: body.amountCents, invoiceId: body.invoiceId })
        return Response.json(result)
      }
      return new Response('Not found', { status: 404 })
    },
  })
  const scheme = o.tls ? 'https' : 'http'
  return {
    port: server.port,
    /** The shop's address under a given host name, e.g. url("www.shop.test", "/?aff=x"). */
    url: (host: string, path = '/') => `${scheme}://${host}:${server.port}${path}`,
    stop: async () => void server.stop(true),
  }
}

/**
 * The shop's pages call the tracker from the shop's origin, which the program must allow
 * (http://localhost:8080 is no https subdomain of the program's domain). With the operator
 * token the shop adds its origin to allowed_origins itself; without it, it says how.
 * Returns the line to print.
 */
export async function ensureOrigin(svcUrl: string, programId: number, origin: string, adminToken: string | undefined): Promise<string> {
  const path = `${svcUrl.replace(/\/+$/, '')}/api/v1/admin/programs/${programId}`
  if (!adminToken) {
    return (
      `The program must allow this origin, or the tracker's calls answer 403 "Origin not allowed for this program":\n` +
      `  curl -X PATCH ${path} -H "Authorization: Bearer $SVC_ADMIN_TOKEN" -H "Content-Type: application/json" ` +
      `-d '{"allowed_origins":["${origin}"]}'   (keep the origins it has; or start the shop with SVC_ADMIN_TOKEN set)`
    )
  }
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }
  const read = await fetch(path, { headers })
  if (!read.ok) throw new Error(`GET ${path} answered ${read.status}: ${await read.text()}`)
  const origins: string[] = (await read.json()).data[0].allowed_origins
  if (origins.includes(origin)) return `${origin} is already in the program's allowed_origins.`
  const write = await fetch(path, { method: 'PATCH', headers, body: JSON.stringify({ allowed_origins: [...origins, origin] }) })
  if (!write.ok) throw new Error(`PATCH ${path} answered ${write.status}: ${await write.text()}`)
  return `Added ${origin} to the program's allowed_origins.`
}

if (import.meta.main) {
  const env = process.env
  const svcUrl = env.SVC_URL ?? 'http://localhost:3000'
  const programId = Number(env.SVC_PROGRAM_ID ?? 0)
  if (!env.SVC_API_KEY || !programId) {
    console.error(
      "Set SVC_URL, SVC_API_KEY and SVC_PROGRAM_ID (and SVC_ADMIN_TOKEN to allow the shop's origin): see examples/shop/README.md",
    )
    process.exit(2)
  }
  const shop = startShop({ svcUrl, apiKey: env.SVC_API_KEY, programId, port: Number(env.PORT ?? 8080) })
  console.log(await ensureOrigin(svcUrl, programId, shop.url('localhost', ''), env.SVC_ADMIN_TOKEN))
  console.log(`shop on ${shop.url('localhost')}`)
}
