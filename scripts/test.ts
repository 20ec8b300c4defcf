/**
 * `npm test`: the whole suite on Bun and the HTTP suites against Deno, side by side. Each run
 * spends much of its time waiting on timers, sockets and child processes, so on two cores the pair
 * takes little more than the longer one, where one after the other took the sum. The Deno run's
 * output is held and printed whole after the Bun run's, so that neither is interleaved; the exit
 * code is the first non-zero of the two.
 */
const bunTest = Bun.spawn([process.execPath, '--max-http-header-size=65536', 'test', '--timeout', '30000'], {
  stdout: 'inherit',
  stderr: 'inherit',
})
const denoTest = Bun.spawn(['npm', 'run', '--silent', 'test:deno'], { stdout: 'pipe', stderr: 'pipe' })
const held = Promise.all([new Response(denoTest.stdout).text(), new Response(denoTest.stderr).text()])
const bunCode = await bunTest.exited
const [out, err] = await held
const denoCode = await denoTest.exited
// Written whole before the exit (a pipe takes large writes in parts; process.exit would cut them).
await Bun.write(Bun.stdout, out)
await Bun.write(Bun.stderr, `\n--- the HTTP suites against Deno ---\n${err}`)
process.exit(bunCode || denoCode)
export {}
