// The server the HTTP suites run against on Deno (SVC_TEST_RUNTIME=deno, test/helpers.ts): the
// production composition root (boot) with two test dependencies made explicit. Its clock is the
// file the test process moves (SVC_TEST_CLOCK_FILE), and it keeps no in-memory catalog, since the
// test process writes to the same SQLite file through its own connection.
import { boot } from '../src/boot.ts'
import { denoRuntime } from '../src/runtime/deno.ts'
import { FileClock } from './clocks.ts'

boot(denoRuntime, process.env, {
  clock: new FileClock(process.env.SVC_TEST_CLOCK_FILE!),
  catalog: false,
  outboxIntervalMs: 50,
  webhookTimeoutMs: 400,
})
