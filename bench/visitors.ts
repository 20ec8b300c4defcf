// The click path's visitor counts (src/tracking/visitor-counts.ts) under a flood of distinct IPs
// (issue 26): memory before and after, and the time per click. `bun bench/visitors.ts [clicks]`.
import { VisitorCounts } from '../src/tracking/visitor-counts.ts'

const CLICKS = Number(process.argv[2] ?? 2_000_000)
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
const memory = () => {
  Bun.gc(true)
  const { rss, heapUsed } = process.memoryUsage()
  return { rss, heapUsed }
}

const before = memory()
const counts = new VisitorCounts()
const made = memory()
const t0 = performance.now()
let now = Date.parse('2026-06-01T10:00:00Z')
for (let i = 0; i < CLICKS; i++) {
  // A new address each click (a flood of distinct IPs), over 100 links, 1 ms apart.
  counts.see(i % 100, false, `${(i >>> 24) & 255}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`, now++)
}
const elapsed = performance.now() - t0
const after = memory()
// One IP that bursts in the middle of the flood is still caught.
for (let i = 0; i < 60; i++) counts.see(7, false, '203.0.113.50', now++)
for (let i = 0; i < 50_000; i++) counts.see(i % 100, false, `198.18.${(i >> 8) & 255}.${i & 255}`, now++)
const caught = counts.see(7, false, '203.0.113.50', now++).burst

console.log(`table: ${mb(counts.bytes)} of typed arrays, allocated once`)
console.log(
  `RSS: ${mb(before.rss)} before, ${mb(made.rss)} with the table, ${mb(after.rss)} after ${CLICKS.toLocaleString('en')} distinct IPs`,
)
console.log(`heap used: ${mb(made.heapUsed)} with the table, ${mb(after.heapUsed)} after the flood`)
console.log(`${((elapsed * 1e6) / CLICKS).toFixed(0)} ns per click (${CLICKS.toLocaleString('en')} clicks in ${elapsed.toFixed(0)} ms)`)
console.log(`a bursting IP amid the flood is ${caught ? 'still caught' : 'LOST'}`)
