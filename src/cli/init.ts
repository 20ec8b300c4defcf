import { createInterface } from "node:readline/promises"
import { cli as messages } from "../http/messages.ts"
import type { Ctx } from "./context.ts"
import { CliError, usageError } from "./errors.ts"
import { call } from "./http.ts"
import { show } from "./output.ts"

// Program fields of docs/api.md (Records); checked here too so a typo is a usage
// error (exit 2) before any request, and a prompt can simply ask again. The
// text is the server's own (one source of truth in http/messages.ts, a module
// of plain strings, so the binary pulls in nothing else of the server).
const COMMISSION_TYPES = ["percent", "fixed", "recurring_percent", "recurring_fixed"]

type Field = { flag: string; question: string; check(value: string): string | null }

const FIELDS: Field[] = [
  { flag: "name", question: "Program name", check: (v) => (v ? null : "name must not be empty") },
  { flag: "domain", question: "Domain (for example example.com)", check: (v) => (v ? null : "domain must not be empty") },
  {
    flag: "commission-type",
    question: `Commission type (${COMMISSION_TYPES.join(", ")})`,
    check: (v) => (COMMISSION_TYPES.includes(v) ? null : messages.initCommissionType(v)),
  },
  {
    flag: "commission-rate",
    question: "Commission rate (percent, or major currency units for fixed types)",
    check: (v) => (Number.isFinite(Number(v)) && Number(v) > 0 && v.trim() !== "" ? null : messages.initCommissionRate),
  },
]

/**
 * `svc init`: creates a program with the login token and prints its id and API
 * key. Missing flags are asked for on a terminal; without one they are a usage error.
 */
export async function init(ctx: Ctx): Promise<void> {
  if (ctx.args.length > 0) throw usageError(`svc init takes no arguments (got ${ctx.args[0]}); use --name, --domain…`)
  if (!ctx.token) throw usageError("Not logged in. Run `svc login` first.")
  const values = await collect(ctx)
  const reply = await call(ctx, "POST", "/api/v1/cli/init", {
    token: ctx.token,
    json: {
      name: values.name,
      domain: values.domain,
      commission_type: values["commission-type"],
      commission_rate: Number(values["commission-rate"]),
    },
  })
  const data = reply.body?.data
  if (data?.program_id === undefined || typeof data?.api_key !== "string") {
    throw new CliError("The server answered init without data.program_id and data.api_key", 1, reply.body)
  }
  show(ctx, reply.body, () => {
    ctx.out(`Created program ${data.program_id}.`)
    ctx.out(`API key: ${data.api_key}`)
  })
  // The key is never shown again in full (docs/api.md, Records: shown masked after issue).
  ctx.err("Warning: store this API key now (a secret manager, or SVC_API_KEY); it will not be shown again.")
}

async function collect(ctx: Ctx): Promise<Record<string, string>> {
  const values: Record<string, string> = {}
  const missing: Field[] = []
  for (const field of FIELDS) {
    const given = ctx.flags[field.flag]
    if (typeof given !== "string") {
      missing.push(field)
      continue
    }
    const problem = field.check(given.trim())
    if (problem) throw usageError(problem)
    values[field.flag] = given.trim()
  }
  if (missing.length === 0) return values
  if (!ctx.interactive) {
    throw usageError(`Missing ${missing.map((f) => `--${f.flag}`).join(", ")} (stdin is not a terminal, so svc cannot ask)`)
  }
  // Questions go to stderr so stdout keeps only the result. Lines are read through
  // the iterator, which buffers: pasted or piped answers arrive all at once and
  // rl.question() would drop those that come before it asks.
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false })
  const lines = rl[Symbol.asyncIterator]()
  try {
    for (const field of missing) values[field.flag] = await ask(ctx, lines, field)
  } finally {
    rl.close()
  }
  return values
}

async function ask(ctx: Ctx, lines: AsyncIterator<string>, field: Field): Promise<string> {
  for (;;) {
    process.stderr.write(`${field.question}: `)
    const next = await lines.next()
    // End of input (Ctrl-D) before an answer.
    if (next.done) throw usageError("Cancelled.")
    const answer = next.value.trim()
    const problem = field.check(answer)
    if (!problem) return answer
    ctx.err(problem)
  }
}
