// What a start loads (issue 36, docs/decisions.md, Runtime and shape): the server is built split in
// chunks (`npm run build:server`: --format esm --splitting), so that what only a later request
// needs is read and run with that request. Each node: module a chunk imports costs memory at start
// whether or not its code runs; so do the modules of the chunk itself. This builds the server as
// that command does, follows the entry's static imports, and checks what they hold.
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { serverBuild } from './spawn.ts'

const ROOT = join(import.meta.dir, '../..')
/** `npm run build:server`'s arguments, and the entry points among them. */
const BUILD = serverBuild(ROOT, 'unused')
const ENTRIES = BUILD.filter((arg) => arg.endsWith('.ts'))

/** Loaded with the first request that needs them, never at start. */
const LATER_MODULES = [
  'src/domain/fraud-lists.ts', // the first fraud check
  'src/outbox/webhooks/deliver.ts', // the first webhook attempt sent from the main thread
  'src/outbox/webhooks/post.ts',
  'src/imports/importer.ts', // the first import
  'node_modules/nodemailer/', // the first email sent over SMTP
  'node_modules/qrcode/', // the first QR code of the portal
  'node_modules/fflate/', // the first gzipped tracker script
]
const LATER_BUILTINS = ['http', 'https', 'dns', 'dns/promises', 'tls', 'stream', 'zlib', 'child_process']

/** The text of the entry chunk and of every chunk it imports statically (not `import()`), by file. */
async function startChunks(): Promise<Map<string, string>> {
  const built = await Bun.build({
    entrypoints: ENTRIES.map((entry) => join(ROOT, entry)),
    target: 'bun',
    format: 'esm',
    splitting: true,
  })
  if (!built.success) throw new AggregateError(built.logs, 'the server does not build')
  const texts = new Map<string, string>()
  for (const output of built.outputs) texts.set(output.path.replace(/^\.\//, ''), await output.text())
  const loaded = new Map<string, string>()
  const visit = (file: string) => {
    if (loaded.has(file)) return
    const text = texts.get(file)
    if (text === undefined) throw new Error(`no chunk ${file} among ${[...texts.keys()].join(', ')}`)
    loaded.set(file, text)
    for (const match of text.matchAll(/^(?:import|export)\b[^;'"(]*?(?:from\s*)?["']\.\/([^"']+)["']/gm)) visit(match[1]!)
  }
  visit('main.js')
  return loaded
}

test('npm run build:server splits the server in chunks', () => {
  expect(BUILD.join(' ')).toContain('--format esm')
  expect(BUILD).toContain('--splitting')
  expect(ENTRIES).toEqual(['src/main.ts', 'src/outbox/webhooks/worker.ts'])
})

test('a start loads no module that only a later request needs', async () => {
  const chunks = await startChunks()
  const text = [...chunks.values()].join('\n')
  // The bundle names each module it holds in a comment: the check reads those.
  expect(text).toContain('// src/server.ts')
  expect(LATER_MODULES.filter((path) => text.includes(`// ${path}`))).toEqual([])
  const builtins = new Set([...text.matchAll(/^import\b[^;]*?from\s*["'](?:node:)?([a-z_/]+)["']/gm)].map((match) => match[1]))
  expect(builtins.has('crypto')).toBe(true)
  expect(LATER_BUILTINS.filter((name) => builtins.has(name))).toEqual([])
}, 60_000)
