/**
 * `npm run drill`: the operations drills of issue 10, one after the other, each printing its
 * figures (never part of `npm test`, except the restore drill's small run). Sizes: DRILL_KILL_ROUNDS
 * (20), DRILL_TERM_ROUNDS (5), DRILL_SALES (3000), DRILL_RPO_ROUNDS (3), DRILL_WIDTH (32).
 */
const drills = ['kill9.ts', 'sigterm.ts', 'restore.ts']
let failed = 0
for (const drill of drills) {
  const child = Bun.spawn([process.execPath, `${import.meta.dir}/${drill}`], { stdout: 'inherit', stderr: 'inherit' })
  if ((await child.exited) !== 0) failed++
}
// Deno too: the shutdown rules hold on both runtimes.
const deno = Bun.spawn([process.execPath, `${import.meta.dir}/sigterm.ts`], {
  env: { ...process.env, DRILL_RUNTIME: 'deno' },
  stdout: 'inherit',
  stderr: 'inherit',
})
if ((await deno.exited) !== 0) failed++
console.log(failed ? `drills: ${failed} failed` : 'drills: all passed')
process.exitCode = failed ? 1 : 0
