import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test"
import { ID_TOKEN, startStub, type Stub } from "./stub-server.ts"
import { cliCommand, runCli, tempHome } from "./run-cli.ts"

// Prompts appear only when stdin is a terminal; util-linux `script` gives the
// program a pseudo-terminal while the test still feeds its input.
const script = Bun.which("script")

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
  stub.seen.length = 0
})
afterEach(() => home.cleanup())

test.skipIf(!script)("init on a terminal asks for missing fields and asks again after a bad answer", async () => {
  expect((await runCli(["login", "--id-token", ID_TOKEN], env)).code).toBe(0)
  const command = [...cliCommand(), "init", "--name", "Acme"].map((word) => `'${word}'`).join(" ")
  const proc = Bun.spawn([script!, "-qec", command, "/dev/null"], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdin: new Blob(["acme.test\nbogus\nfixed\n5\n"]),
    stdout: "pipe",
    stderr: "pipe",
  })
  const [output, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  expect(code).toBe(0)
  expect(output).toContain("Domain (for example example.com): ")
  expect(output).toContain("Invalid commission_type: bogus.")
  expect(output).toContain("Created program 42.")
  const sent = stub.seen.find((s) => s.path === "/api/v1/cli/init")!
  expect(JSON.parse(sent.body)).toEqual({ name: "Acme", domain: "acme.test", commission_type: "fixed", commission_rate: 5 })
})
