// The tracker's size budget (issue 5): at most 900 bytes gzipped, as served; 900 since data-svc-params (docs/decisions.md, Turn 4).
import { expect, test } from 'bun:test'
import { gzipSync } from 'fflate'
import { buildTracker } from '../../tracker/build.ts'

test('the minified tracker is at most 900 bytes gzipped', async () => {
  const source = await buildTracker()
  const gzipped = gzipSync(new TextEncoder().encode(source), { level: 9 }).length
  console.log(`tracker.js: ${source.length} bytes minified, ${gzipped} bytes gzipped (budget 900)`)
  expect(gzipped).toBeLessThanOrEqual(900)
})

test('the build is one self-contained script with no module syntax', async () => {
  const source = await buildTracker()
  expect(source).not.toMatch(/\bimport\b|\bexport\b|require\(/)
  expect(source).toStartWith('((')
})

test('the server embeds the current build (run `bun tracker/build.ts` after changing tracker/src)', async () => {
  const { trackerModule } = await import('../../tracker/build.ts')
  const embedded = await Bun.file(new URL('../../src/tracker-source.ts', import.meta.url)).text()
  expect(embedded).toBe(trackerModule(await buildTracker()))
})
