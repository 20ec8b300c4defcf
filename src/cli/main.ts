#!/usr/bin/env bun
import { run } from './run.ts'

// Entry point of the `svc` binary (bun build --compile src/cli/main.ts). The
// guard keeps the module inert when imported, as everything else in src is.
if (import.meta.main) {
  process.exitCode = await run(process.argv.slice(2), process.env)
}
