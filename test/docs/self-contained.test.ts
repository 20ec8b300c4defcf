// The repository stands alone: no tracked file cites the contract files that lived outside it,
// and every relative link of a Markdown file leads to a file of the repository.
import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

const ROOT = join(import.meta.dir, '../..')
const tracked = Bun.spawnSync(['git', 'ls-files', '-z'], { cwd: ROOT }).stdout.toString().split('\0').filter(Boolean)
const text = (file: string) => {
  const bytes = readFileSync(join(ROOT, file))
  return bytes.includes(0) ? null : bytes.toString('utf8')
}

test('no tracked file names the contract files that lived outside the repository', () => {
  expect(tracked.length).toBeGreaterThan(100)
  // Spelled in pieces so that this file does not match itself.
  const outside = ['../' + 'shared', 'SPEC' + '.md', 'DECISIONS' + '.md', 'STYLE' + '.md']
  const hits: string[] = []
  for (const file of tracked) {
    const content = text(file)
    if (content === null || file === 'package-lock.json') continue
    content.split('\n').forEach((line, i) => {
      for (const name of outside) if (line.includes(name)) hits.push(`${file}:${i + 1}: ${name}`)
    })
  }
  expect(hits).toEqual([])
})

test('every relative Markdown link points inside the repository at a file that exists', () => {
  const broken: string[] = []
  for (const file of tracked.filter((f) => f.endsWith('.md'))) {
    for (const [, target] of text(file)!.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue
      const path = normalize(join(dirname(file), target.split('#')[0]))
      if (relative('.', path).startsWith('..') || !existsSync(join(ROOT, path))) broken.push(`${file}: ${target}`)
    }
  }
  expect(broken).toEqual([])
})

test('the license is MIT, in LICENSE and in package.json', () => {
  expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toStartWith('MIT License')
  expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license).toBe('MIT')
})
