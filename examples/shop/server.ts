// The example advertiser site: two static pages carrying the tracker, and two backend
// routes that report the lead and the sale with the server client. It is documentation
// and the browser tests' fixture. Run: SVC_URL=... SVC_API_KEY=... SVC_PROGRAM_ID=... bun examples/shop/server.ts
import { join } from "node:path"
import { Svc, readClickId } from "../../src/client/server"

export type ShopOptions = {
  svcUrl: string
  apiKey: string
  programId: number
  port?: number
  /** PEM certificate and key: serve over HTTPS. */
  tls?: { cert: string; key: string }
}

const pages: Record<string, string> = { "/": "index.html", "/signup": "signup.html" }

/**
 * Starts the shop on 127.0.0.1; any host name that resolves there (www/app.shop.test) works.
 * The options are read per request, so a test may fill in the service after learning the port.
 */
export function startShop(o: ShopOptions) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: o.port ?? 0,
    tls: o.tls,
    async fetch(req) {
      const { pathname } = new URL(req.url)
      const page = pages[pathname]
      if (page && req.method === "GET") {
        const html = (await Bun.file(join(import.meta.dir, "public", page)).text())
          .replaceAll("%SVC_URL%", o.svcUrl)
          .replaceAll("%PROGRAM_ID%", String(o.programId))
        return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } })
      }
      if (req.method !== "POST") return new Response("Not found", { status: 404 })
      const svc = new Svc({ apiKey: o.apiKey, baseUrl: o.svcUrl })
      const body = await req.json()
      if (pathname === "/api/signup") {
        // Prefer the cookie: it is what a framework server sees without client code.
        const clickId = readClickId(req) ?? body.clickId ?? null
        const result = await svc.trackLead({ customerExternalId: body.customerId, clickId, email: body.email || undefined })
        return Response.json(result)
      }
      if (pathname === "/api/checkout") {
        const result = await svc.trackSale({ customerExternalId: body.customerId, amount: body.amountCents, invoiceId: body.invoiceId })
        return Response.json(result)
      }
      return new Response("Not found", { status: 404 })
    },
  })
  const scheme = o.tls ? "https" : "http"
  return {
    port: server.port,
    /** The shop's address under a given host name, e.g. url("www.shop.test", "/?aff=x"). */
    url: (host: string, path = "/") => `${scheme}://${host}:${server.port}${path}`,
    stop: async () => void server.stop(true),
  }
}

if (import.meta.main) {
  const env = process.env
  const shop = startShop({
    svcUrl: env.SVC_URL ?? "http://localhost:3000",
    apiKey: env.SVC_API_KEY ?? "",
    programId: Number(env.SVC_PROGRAM_ID ?? 0),
    port: Number(env.PORT ?? 8080),
  })
  console.log(`shop on ${shop.url("localhost")}`)
}
