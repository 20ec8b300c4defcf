import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test"
import { API_KEY, ID_TOKEN, LOGIN_TOKEN, RETIRED_KEY, ROTATING_KEY, startStub, type Stub } from "./stub-server.ts"
import { runCli, tempHome } from "./run-cli.ts"

let stub: Stub
let home: ReturnType<typeof tempHome>
let env: Record<string, string>
const INIT_FLAGS = ["--name", "Acme", "--domain", "acme.test", "--commission-type", "percent", "--commission-rate", "20"]

beforeAll(() => {
  stub = startStub()
})
afterAll(() => stub.stop())
beforeEach(() => {
  home = tempHome()
  env = { ...home.env, SVC_BASE_URL: stub.url }
  stub.seen.length = 0
  stub.failing.clear()
})
afterEach(() => home.cleanup())

const loggedIn = async () => expect((await runCli(["login", "--id-token", ID_TOKEN], env)).code).toBe(0)

test("init sends the four fields with the login token and prints the API key once with a warning", async () => {
  await loggedIn()
  const r = await runCli(["init", ...INIT_FLAGS], env)
  expect(r.code).toBe(0)
  const sent = stub.seen.find((s) => s.path === "/api/v1/cli/init")!
  expect(sent.auth).toBe(`Bearer ${LOGIN_TOKEN}`)
  expect(JSON.parse(sent.body)).toEqual({ name: "Acme", domain: "acme.test", commission_type: "percent", commission_rate: 20 })
  expect(r.stdout).toContain("Created program 42.")
  expect(r.stdout).toContain(`API key: ${API_KEY}`)
  expect(r.stderr).toContain("will not be shown again")
})

test("init without a terminal and with flags missing is a usage error naming them", async () => {
  await loggedIn()
  const r = await runCli(["init", "--name", "Acme"], env)
  expect(r.code).toBe(2)
  expect(r.stderr).toContain("--domain, --commission-type, --commission-rate")
  expect(stub.seen.some((s) => s.path === "/api/v1/cli/init")).toBe(false)
})

test("init rejects an unknown commission type or a non-positive rate before any request", async () => {
  await loggedIn()
  const badType = await runCli(["init", ...INIT_FLAGS.slice(0, 4), "--commission-type", "bogus", "--commission-rate", "5"], env)
  expect(badType.code).toBe(2)
  expect(badType.stderr).toContain("Invalid commission_type: bogus. Valid: percent, fixed, recurring_percent, recurring_fixed")
  const badRate = await runCli(["init", ...INIT_FLAGS.slice(0, 6), "--commission-rate=-1"], env)
  expect(badRate.code).toBe(2)
  expect(badRate.stderr).toContain("commission_rate must be a positive number")
})

test("init and programs before login are usage errors", async () => {
  for (const args of [["init", ...INIT_FLAGS], ["programs"]]) {
    const r = await runCli(args, env)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("Run `svc login` first")
  }
})

test("a rejected login token prints the server's message and request id with exit 1", async () => {
  await loggedIn()
  const config = `${home.env.XDG_CONFIG_HOME}/svc/config.json`
  await Bun.write(config, JSON.stringify({ token: "stale" }))
  const r = await runCli(["programs"], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("svc: Invalid or expired token. Run `svc login` to refresh. (request_id: req_stub_1)")
})

test("programs prints a table, and --json prints the raw answer", async () => {
  await loggedIn()
  const r = await runCli(["programs"], env)
  expect(r.code).toBe(0)
  expect(r.stdout).toMatch(/ID\s+NAME\s+DOMAIN\s+COMMISSION/)
  expect(r.stdout).toMatch(/42\s+Acme\s+acme\.test\s+percent 20/)
  const raw = await runCli(["programs", "--json"], env)
  expect(JSON.parse(raw.stdout)).toEqual({
    data: [{ id: 42, name: "Acme", domain: "acme.test", commission_type: "percent", commission_rate: 20 }],
    error: null,
  })
})

test("status uses the program key from --api-key or SVC_API_KEY", async () => {
  const viaFlag = await runCli(["status", "--api-key", API_KEY], env)
  expect(viaFlag.code).toBe(0)
  expect(viaFlag.stdout).toContain("name: Acme")
  expect(viaFlag.stdout).toContain("clicks: 3")
  const viaEnv = await runCli(["status", "--json"], { ...env, SVC_API_KEY: API_KEY })
  expect(JSON.parse(viaEnv.stdout).data.program_id).toBe(42)
  expect(stub.seen.every((s) => s.auth === `Bearer ${API_KEY}`)).toBe(true)
})

test("status without a key is a usage error; with a wrong key it fails without a request id", async () => {
  expect((await runCli(["status"], env)).code).toBe(2)
  const r = await runCli(["status", "--api-key", "nope"], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("svc: Invalid API key. Regenerate the key in program settings")
  expect(r.stderr).not.toContain("request_id")
})

test("a typed error without a message prints its code, hint and docs link", async () => {
  const r = await runCli(["status", "--api-key", RETIRED_KEY], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("svc: api_key_rotation_required\nRegenerate the key.\nSee http://docs.test/#api_key_rotation_required")
})

test("rotation warnings go to stderr while the command succeeds and stdout stays pure JSON", async () => {
  const r = await runCli(["status", "--api-key", ROTATING_KEY, "--json"], env)
  expect(r.code).toBe(0)
  expect(JSON.parse(r.stdout).data.program_id).toBe(42)
  expect(r.stderr).toContain("Warning: This key stops working soon. (rotate by 2030-01-01T00:00:00Z)")
})

test("a CLI 500 prints its message once, with the request id it already carries", async () => {
  stub.failing.add("/api/v1/cli/status")
  const r = await runCli(["status", "--api-key", API_KEY], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toBe("svc: Failed to get status (request_id: req_stub_500)\n")
})

test("--json on a failure prints the server's error body on stdout", async () => {
  stub.failing.add("/api/v1/cli/status")
  const r = await runCli(["status", "--api-key", API_KEY, "--json"], env)
  expect(r.code).toBe(1)
  expect(JSON.parse(r.stdout).error.details.request_id).toBe("req_stub_500")
})

test("test sends event_type for single events and type chain for the chain (the default)", async () => {
  for (const kind of ["click", "lead", "sale"]) {
    const r = await runCli(["test", kind, "--api-key", API_KEY], env)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`Test ${kind} sent:`)
  }
  const chain = await runCli(["test", "--api-key", API_KEY], env)
  expect(chain.code).toBe(0)
  expect(chain.stdout).toContain("Synthetic chain ran:")
  const bodies = stub.seen.map((s) => JSON.parse(s.body))
  expect(bodies).toEqual([{ event_type: "click" }, { event_type: "lead" }, { event_type: "sale" }, { type: "chain" }])
})

test("test with an unknown event type is a usage error and sends nothing", async () => {
  const r = await runCli(["test", "refund", "--api-key", API_KEY], env)
  expect(r.code).toBe(2)
  expect(r.stderr).toContain("Unknown test event: refund")
  expect(stub.seen.length).toBe(0)
})

test("a 429 is retried after Retry-After and then succeeds", async () => {
  stub.rateLimit(1, "1")
  const started = Date.now()
  const r = await runCli(["status", "--api-key", API_KEY], env)
  expect(r.code).toBe(0)
  expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
  expect(r.stderr).toContain("Rate limited; retrying in 1s")
  expect(stub.seen.length).toBe(2)
})

test("a 429 asking for longer than a minute is not waited for: exit 1 with the wait", async () => {
  stub.rateLimit(1, "3600")
  const r = await runCli(["test", "chain", "--api-key", API_KEY], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("Too many requests (request_id: req_stub_1) (retry after 3600s)")
  expect(stub.seen.length).toBe(1)
})

test("unknown commands, unknown flags and flags of other commands are usage errors", async () => {
  const cases = [["frobnicate"], ["status", "--bogus"], ["programs", "--name", "x"], [], ["status", "--api-key", "k", "--base-url", "localhost:3000"]]
  for (const args of cases) {
    expect((await runCli(args, env)).code).toBe(2)
  }
})

test("--help prints usage on stdout with exit 0", async () => {
  const r = await runCli(["--help"], env)
  expect(r.code).toBe(0)
  expect(r.stdout).toContain("Exit codes: 0 ok, 1 request failed, 2 usage error.")
})

test("an unreachable server is a failed request (exit 1)", async () => {
  const r = await runCli(["status", "--api-key", API_KEY, "--base-url", "http://127.0.0.1:1"], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("Could not reach http://127.0.0.1:1")
})
