import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test"
import { createHmac } from "node:crypto"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { startStub, WEBHOOK_SECRET, type Stub } from "./stub-server.ts"
import { runCli, tempHome } from "./run-cli.ts"

let stub: Stub
let home: ReturnType<typeof tempHome>
let env: Record<string, string>
let file: string
// Odd spacing on purpose: the file must be sent byte for byte, not re-serialised.
const EVENT = '{ "id": "evt_1",  "type": "checkout.session.completed", "data": {"object": {}} }\n'

beforeAll(() => {
  stub = startStub()
})
afterAll(() => stub.stop())
beforeEach(() => {
  home = tempHome()
  env = { ...home.env, SVC_BASE_URL: stub.url }
  file = join(home.dir, "event.json")
  writeFileSync(file, EVENT)
  stub.seen.length = 0
})
afterEach(() => home.cleanup())

test("replay signs the file as Stripe does and posts it to the program's route", async () => {
  const r = await runCli(["stripe", "replay", file, "--program-id", "42", "--secret", WEBHOOK_SECRET, "--timestamp", "1700000000"], env)
  expect(r.code).toBe(0)
  expect(r.stdout).toContain("Delivered evt_1 (checkout.session.completed) to /api/v1/webhooks/stripe/42.")
  const sent = stub.seen[0]!
  expect(sent.path).toBe("/api/v1/webhooks/stripe/42")
  expect(sent.body).toBe(EVENT)
  const mac = createHmac("sha256", WEBHOOK_SECRET).update(`1700000000.${EVENT}`).digest("hex")
  expect(sent.headers.get("stripe-signature")).toBe(`t=1700000000,v1=${mac}`)
})

test("replay --connect posts to the Connect route with the secret from SVC_STRIPE_WEBHOOK_SECRET", async () => {
  const r = await runCli(["stripe", "replay", file, "--connect", "--json"], { ...env, SVC_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET })
  expect(r.code).toBe(0)
  expect(JSON.parse(r.stdout)).toEqual({ received: true })
  expect(stub.seen[0]!.path).toBe("/api/v1/webhooks/stripe")
  const t = Number(stub.seen[0]!.headers.get("stripe-signature")!.match(/^t=(\d+),/)![1])
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60)
})

test("a signature the server refuses is a failed request", async () => {
  const r = await runCli(["stripe", "replay", file, "--connect", "--secret", "whsec_wrong"], env)
  expect(r.code).toBe(1)
  expect(r.stderr).toContain("svc: Invalid signature")
})

test("replay usage errors: no file, not JSON, no secret, neither or both targets", async () => {
  const notJson = join(home.dir, "bad.json")
  writeFileSync(notJson, "nope")
  const cases = [
    ["stripe", "replay", "--connect", "--secret", "s"],
    ["stripe", "replay", join(home.dir, "missing.json"), "--connect", "--secret", "s"],
    ["stripe", "replay", notJson, "--connect", "--secret", "s"],
    ["stripe", "replay", file, "--connect"],
    ["stripe", "replay", file, "--secret", "s"],
    ["stripe", "replay", file, "--connect", "--program-id", "42", "--secret", "s"],
    ["stripe", "replay", file, "--program-id", "abc", "--secret", "s"],
    ["stripe", "push", file],
  ]
  for (const args of cases) expect({ args, code: (await runCli(args, env)).code }).toEqual({ args, code: 2 })
  expect(stub.seen.length).toBe(0)
})
