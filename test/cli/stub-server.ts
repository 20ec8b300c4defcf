import { createHmac } from "node:crypto"

/**
 * A stand-in for the real server's CLI routes, answering with the bodies of
 * DECISIONS.md and the messages of SPEC.md (CLI errors). It lets the CLI's own
 * behaviour (flags, exit codes, token file, retries, output) be tested before
 * the server exists; test/cli/real-server.test.ts covers the real thing.
 */
export const LOGIN_TOKEN = "lt_stub_login_token"
export const ID_TOKEN = "idt_stub_good"
export const SUSPENDED_ID_TOKEN = "idt_stub_suspended"
export const API_KEY = "sk_stub_program_key"
export const WEBHOOK_SECRET = "whsec_stub"
/** A key marked for rotation: works, with `warnings` beside `data`. */
export const ROTATING_KEY = "sk_stub_rotating"
/** A retired key: 401 typed envelope with code, hint and docs_url but no message. */
export const RETIRED_KEY = "sk_stub_retired"

export type Seen = { method: string; path: string; auth: string | null; headers: Headers; body: string }

export type Stub = {
  url: string
  seen: Seen[]
  /** The next N requests answer 429 with this Retry-After. */
  rateLimit(times: number, retryAfter: string): void
  /** Polls needed before a started session completes (browser sign-in). */
  pollsUntilComplete: number
  expireSessions: boolean
  /** Paths that answer the CLI 500 of SPEC.md. */
  failing: Set<string>
  stop(): void
}

type Session = { polls: number; status: "pending" | "complete" | "consumed" }

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "x-request-id": "req_stub_1", ...headers } })

const platformError = (status: number, name: string, message: string, details: object = {}, headers = {}) =>
  json(status, { data: null, error: { status, name, message, details } }, headers)

/** Starts the stub on a free port. */
export function startStub(): Stub {
  const sessions = new Map<string, Session>()
  let limited = 0
  let retryAfter = "1"
  let counter = 0

  const stub: Stub = {
    url: "",
    seen: [],
    rateLimit(times, after) {
      limited = times
      retryAfter = after
    },
    pollsUntilComplete: 1,
    expireSessions: false,
    failing: new Set(),
    stop: () => server.stop(true),
  }

  const route = async (req: Request): Promise<Response> => {
    const url = new URL(req.url)
    const body = await req.text()
    const auth = req.headers.get("authorization")
    stub.seen.push({ method: req.method, path: url.pathname + url.search, auth, headers: req.headers, body })
    const key = `${req.method} ${url.pathname}`
    const bearer = auth?.startsWith("Bearer ") ? auth.slice(7) : null

    if (limited > 0) {
      limited--
      const error = { status: 429, code: "rate_limited", message: "Too many requests", retry_after_seconds: Number(retryAfter) }
      return json(429, { error }, { "retry-after": retryAfter })
    }
    if (stub.failing.has(url.pathname)) {
      const message = `Failed to get status (request_id: req_stub_500)`
      return platformError(500, "InternalServerError", message, { request_id: "req_stub_500" }, { "x-request-id": "req_stub_500" })
    }

    switch (key) {
      case "POST /api/v1/cli/auth/start": {
        const state = `st_${++counter}`
        sessions.set(state, { polls: 0, status: "pending" })
        const expires_at = new Date(Date.now() + 5 * 60_000).toISOString()
        return json(200, { data: { state, login_url: `${stub.url}/cli/login?state=${state}`, expires_at }, error: null })
      }
      case "POST /api/v1/cli/auth/callback": {
        const { state, id_token } = JSON.parse(body || "{}")
        if (!state || !id_token) return platformError(400, "BadRequestError", "Missing required fields: state, id_token")
        const session = sessions.get(state)
        if (!session || session.status !== "pending") return platformError(404, "NotFoundError", "Session not found or already used")
        if (id_token === SUSPENDED_ID_TOKEN) {
          return platformError(403, "ForbiddenError", "Your account has been suspended.", { code: "ACCOUNT_BLOCKED" })
        }
        if (id_token !== ID_TOKEN) return platformError(400, "BadRequestError", "Invalid id_token")
        session.status = "complete"
        return json(200, { data: { status: "complete" }, error: null })
      }
      case "GET /api/v1/cli/auth/poll": {
        const state = url.searchParams.get("state")
        if (!state) return platformError(400, "BadRequestError", "Missing state parameter")
        const session = sessions.get(state)
        if (!session) return platformError(404, "NotFoundError", "Session not found")
        if (session.status === "consumed") return platformError(400, "BadRequestError", "Session already consumed")
        if (stub.expireSessions) return json(200, { data: { status: "expired" }, error: null })
        session.polls++
        if (session.status === "pending" && session.polls < stub.pollsUntilComplete) {
          return json(200, { data: { status: "pending" }, error: null })
        }
        session.status = "consumed"
        return json(200, { data: { status: "complete", token: LOGIN_TOKEN }, error: null })
      }
      case "POST /api/v1/cli/init": {
        if (!bearer) return platformError(401, "UnauthorizedError", "Authentication required — run `svc login` first")
        if (bearer !== LOGIN_TOKEN) return platformError(401, "UnauthorizedError", "Invalid or expired token — run `svc login` again")
        const input = JSON.parse(body || "{}")
        if (!input.name || !input.domain || !input.commission_type || input.commission_rate === undefined) {
          return platformError(400, "BadRequestError", "Missing required fields: name, domain, commission_type, commission_rate")
        }
        return json(200, { data: { program_id: 42, api_key: API_KEY }, error: null })
      }
      case "GET /api/v1/cli/programs": {
        if (!bearer) return platformError(401, "UnauthorizedError", "Missing Authorization header. Run `svc login` first.")
        if (bearer !== LOGIN_TOKEN) return platformError(401, "UnauthorizedError", "Invalid or expired token. Run `svc login` to refresh.")
        const programs = [{ id: 42, name: "Acme", domain: "acme.test", commission_type: "percent", commission_rate: 20 }]
        return json(200, { data: programs, error: null })
      }
      case "GET /api/v1/cli/status":
      case "POST /api/v1/cli/test-event": {
        // GET status answers without X-Request-ID (SPEC.md, Request IDs).
        const noId: Record<string, string> = key.startsWith("GET") ? { "x-request-id": "" } : {}
        if (bearer === RETIRED_KEY) {
          const error = { code: "api_key_rotation_required", hint: "Regenerate the key.", docs_url: "http://docs.test/#api_key_rotation_required" }
          return strip(json(401, { error }, noId))
        }
        if (bearer === ROTATING_KEY) {
          const warnings = [{ code: "api_key_rotation_required", message: "This key stops working soon.", hint: "Rotate it.", rotate_by: "2030-01-01T00:00:00Z", docs_url: "http://docs.test/" }]
          return strip(json(200, { data: { program_id: 42 }, error: null, warnings }, noId))
        }
        if (bearer !== API_KEY) {
          const message = "Invalid API key. Regenerate the key in program settings (Developers, API keys)."
          return strip(platformError(401, "UnauthorizedError", message, {}, noId))
        }
        if (key.startsWith("GET")) return strip(json(200, { data: { program_id: 42, name: "Acme", counts: { clicks: 3 } }, error: null }, noId))
        const input = JSON.parse(body || "{}")
        if (input.type === "chain") return json(200, { data: { steps: [{ step: "click", ok: true }, { step: "sale", ok: true }] }, error: null })
        if (!["click", "lead", "sale"].includes(input.event_type)) {
          return platformError(400, "BadRequestError", `Invalid event_type: ${input.event_type}. Valid: click, lead, sale`)
        }
        return json(200, { data: { event_type: input.event_type, click_id: "clk_stub" }, error: null })
      }
      case "POST /api/v1/webhooks/stripe":
      case "POST /api/v1/webhooks/stripe/42":
        return verifyStripe(req.headers.get("stripe-signature"), body)
    }
    return platformError(404, "NotFoundError", "Not found")
  }

  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: route })
  stub.url = `http://127.0.0.1:${server.port}`
  return stub
}

// Drops an emptied header so "no X-Request-ID" is really absent.
function strip(res: Response): Response {
  if (res.headers.get("x-request-id") === "") res.headers.delete("x-request-id")
  return res
}

function verifyStripe(header: string | null, payload: string): Response {
  const parts = Object.fromEntries((header ?? "").split(",").map((p) => p.split("=") as [string, string]))
  const expected = createHmac("sha256", WEBHOOK_SECRET).update(`${parts.t}.${payload}`).digest("hex")
  if (parts.v1 !== expected) return Response.json({ data: null, error: { status: 400, name: "BadRequestError", message: "Invalid signature", details: {} } }, { status: 400 })
  return Response.json({ received: true })
}
