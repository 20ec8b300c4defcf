// The README's quick start, first hour, examples and sign-in links run as written: their shell blocks, in order,
// in one bash, against the real server that `npm start` starts. Only the port differs (a free
// one instead of 3000, so that the suite may run beside a server) and the database is a
// temporary file. Each comment line starting with `# {` is the answer the command before it
// must give; `…` stands for any text.
import { expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../helpers.ts'

const ROOT = join(import.meta.dir, '../..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The ```sh blocks of the README section whose heading starts with `heading`. */
export function shellBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}`)
  if (start < 0) throw new Error(`README has no section "${heading}"`)
  const end = markdown.indexOf('\n## ', start + 1)
  const section = markdown.slice(start, end < 0 ? undefined : end)
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1])
}

/** An expected answer as a pattern: `…` matches anything, the rest literally. */
const pattern = (expected: string) =>
  new RegExp(
    `^${expected
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')}$`,
  )

test('the README quick start, first hour, examples and sign-in links run as written and answer what they show', async () => {
  // The sign-in links name the account and partner the quick start made (a partner id that the
  // quick start never made once sat there).
  const blocks = ['Quick start', 'First hour', 'Examples', 'Dashboard and partner portal'].flatMap((h) => shellBlocks(README, h))
  expect(blocks.length).toBeGreaterThanOrEqual(6)
  const port = await freePort()
  const script = blocks.join('\n').replaceAll('localhost:3000', `localhost:${port}`)
  expect(script).not.toContain('localhost:3000')

  // Each command's answer is printed after a marker, to be compared with the comment below it.
  // A command goes on over lines ending with `\` or `,` (a JSON body broken across lines).
  const expected: string[] = []
  const lines: string[] = []
  const source = script.split('\n')
  for (let i = 0; i < source.length; ) {
    if (source[i].startsWith('#') || source[i].trim() === '') {
      i++
      continue
    }
    const command = [source[i++]]
    while (/[\\,]$/.test(command[command.length - 1])) command.push(source[i++])
    if (source[i]?.startsWith('# {')) {
      let answer = source[i++].slice(2)
      while (source[i] !== undefined && /^#\s{2,}/.test(source[i])) answer += source[i++].replace(/^#\s+/, '')
      expected.push(answer)
      lines.push(`printf '\\n@@answer ${expected.length - 1}\\n'`, ...command, `printf '\\n@@done\\n'`)
    } else {
      lines.push(...command)
    }
  }

  const dir = mkdtempSync(join(tmpdir(), 'svc-readme-'))
  const file = join(dir, 'readme.sh')
  writeFileSync(file, `set -eu\n${lines.join('\n')}\nprintf '\\n@@end\\n'\n`)
  // Output to files, not pipes: the server started in the background keeps them open.
  const outFile = join(dir, 'out.txt')
  const errFile = join(dir, 'err.txt')
  const child = Bun.spawn(['setsid', 'bash', file], {
    cwd: ROOT,
    stdout: Bun.file(outFile),
    stderr: Bun.file(errFile),
    env: { ...process.env, PORT: String(port), DATABASE_PATH: join(dir, 'svc.db'), SVC_LOG_REQUESTS: 'false' },
  })
  try {
    const timer = setTimeout(() => child.kill(), 60_000)
    const code = await child.exited
    clearTimeout(timer)
    const out = readFileSync(outFile, 'utf8')
    expect(out, readFileSync(errFile, 'utf8')).toContain('@@end')
    expect(code).toBe(0)
    const answers = out
      .split('\n@@answer ')
      .slice(1)
      .map((chunk) => {
        const [index, ...rest] = chunk.split('\n')
        return { index: Number(index), text: rest.join('\n').split('\n@@done')[0].trim() }
      })
    expect(answers.map((a) => a.index)).toEqual(expected.map((_, i) => i))
    for (const { index, text } of answers) expect(text).toMatch(pattern(expected[index]))
    expect(out).toMatch(/program API key: \S{20,}/)
    expect(out).toMatch(/click id: clk_\S{24}\n/)
  } finally {
    // The README's `npm start &` runs in the script's process group: stop it with the script.
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      /* already gone */
    }
  }
}, 90_000)
