import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test"
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { ID_TOKEN, LOGIN_TOKEN, startStub, SUSPENDED_ID_TOKEN, type Stub } from "./stub-server.ts"
import { runCli, tempHome } from "./run-cli.ts"

let stub: Stub
let home: ReturnType<typeof tempHome>
let env: Record<string, string>

beforeAll(() => {
  stub = startStub()
})
afterAll(() => stub.stop())
beforeEach(() => {
  home = tempHome()
  env = { ...home.env, SVC_BASE_URL: stub.url }
  stub.pollsUntilComplete = 1
  stub.expireSessions = false
  stub.seen.length = 0
})
afterEach(() => home.cleanup())

test("login prints the login URL, polls until complete and saves the token with mode 0600", async () => {
  stub.pollsUntilComplete = 3
  const r = await runCli(["login"], env)
  expect(r.code).toBe(0)
  expect(r.stdout).toContain(`${stub.url}/cli/login?state=`)
  expect(r.stdout).toContain("Logged in")
  expect(stub.seen.filter((s) => s.path.startsWith("/api/v1/cli/auth/poll?state=st_")).length).toBe(3)
  const config = JSON.parse(readFileSync(home.configFile, "utf8"))
  expect(config).toEqual({ base_url: stub.url, token: LOGIN_TOKEN })
  expect(statSync(home.configFile).mode & 0o777).toBe(0o600)
})

test("login uses ~/.config when XDG_CONFIG_HOME is unset", async () => {
  const r = await runCli(["login", "--id-token", ID_TOKEN], { HOME: home.dir, SVC_BASE_URL: stub.url })
  expect(r.code).toBe(0)
  expect(existsSync(`${home.dir}/.config/svc/config.json`)).toBe(true)
})

test("login tightens an existing config file that was world-readable", async () => {
  mkdirSync(dirname(home.configFile), { recursive: true })
  writeFileSync(home.configFile, "{}", { mode: 0o644 })
  expect((await runCli(["login", "--id-token", ID_TOKEN], env)).code).toBe(0)
  expect(statSync(home.configFile).mode & 0o777).toBe(0o600)
})

test("login --id-token posts state and id_token to the callback, then polls", async () => {
  const r = await runCli(["login", "--id-token", ID_TOKEN], env)
  expect(r.code).toBe(0)
  const callback = stub.seen.find((s) => s.path === "/api/v1/cli/auth/callback")!
  const sent = JSON.parse(callback.body)
  expect(sent.id_token).toBe(ID_TOKEN)
  expect(stub.seen.some((s) => s.path === `/api/v1/cli/auth/poll?state=${sent.state}`)).toBe(true)
  expect(r.stdout).not.toContain("/cli/login?state=")
  expect(JSON.parse(readFileSync(home.configFile, "utf8")).token).toBe(LOGIN_TOKEN)
})

test("login --json prints one JSON document and never the token", async () => {
  const r = await runCli(["login", "--id-token", ID_TOKEN, "--json"], env)
  expect(r.code).toBe(0)
  expect(JSON.parse(r.stdout)).toEqual({ data: { status: "complete", config_path: home.configFile }, error: null })
  expect(r.stdout + r.stderr).not.toContain(LOGIN_TOKEN)
})

test("a suspended account's login fails with exit 1 and the server's message and request id", async () => {
  const r = await runCli(["login", "--id-token", SUSPENDED_ID_TOKEN], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("Your account has been suspended. (request_id: req_stub_1)")
  expect(existsSync(home.configFile)).toBe(false)
})

test("an expired login session fails with exit 1 and saves nothing", async () => {
  stub.expireSessions = true
  const r = await runCli(["login"], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("expired")
  expect(existsSync(home.configFile)).toBe(false)
})

test("--base-url beats SVC_BASE_URL, and login remembers it for later commands", async () => {
  const r = await runCli(["login", "--id-token", ID_TOKEN, "--base-url", stub.url], { ...env, SVC_BASE_URL: "http://127.0.0.1:1" })
  expect(r.code).toBe(0)
  const programs = await runCli(["programs"], home.env)
  expect(programs.code).toBe(0)
  expect(programs.stdout).toContain("Acme")
})

test("logout removes the token and is a no-op when already logged out", async () => {
  await runCli(["login", "--id-token", ID_TOKEN], env)
  const first = await runCli(["logout"], env)
  expect(first.code).toBe(0)
  expect(first.stdout).toContain("Logged out.")
  expect(JSON.parse(readFileSync(home.configFile, "utf8")).token).toBeUndefined()
  const second = await runCli(["logout"], env)
  expect(second.code).toBe(0)
  expect(second.stdout).toContain("Not logged in")
})
