import { expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

const SRC = join(import.meta.dir, '..', 'src')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** Regular-expression literals of a source line (good enough for this code base's style). */
function literals(line: string): string[] {
  const found: string[] = []
  const start = /(?:^|[=(,:!&|?]|return)\s*\/(?![/*])/g
  for (let m = start.exec(line); m; m = start.exec(line)) {
    let at = m.index + m[0].length
    let body = ''
    let inClass = false
    for (; at < line.length; at++) {
      const c = line[at]
      if (c === '\\') {
        body += c + line[++at]
        continue
      }
      if (c === '[') inClass = true
      if (c === ']') inClass = false
      if (c === '/' && !inClass) break
      body += c
    }
    if (at < line.length) found.push(body)
  }
  return found
}

/**
 * The shapes that backtrack over a long input: a repetition at the end of an expression not
 * anchored at its start (`/\/+$/` is tried from every offset: quadratic), and `.*` or `.+`
 * beside another repetition (`\s+(.*)`: the split between them is searched).
 */
function backtracks(pattern: string): boolean {
  const endRepeat = /[+*}]\)?\$$/.test(pattern) && !pattern.startsWith('^')
  const dotStar = /\.[*+]/.test(pattern) && pattern.replace(/\.[*+]/, '').match(/[^\\][*+]/) !== null
  return endRepeat || dotStar
}

// docs/decisions.md, Hostile input: no user-controlled string goes through an expression that can backtrack.
test('no regular expression in src/ has a backtracking shape', () => {
  const offenders: string[] = []
  for (const file of files(SRC)) {
    // The tracker's minified source runs in the visitor's browser, over its own cookie string.
    if (file.endsWith('tracker-source.ts')) continue
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const pattern of literals(line)) if (backtracks(pattern)) offenders.push(`${file.slice(SRC.length + 1)}:${i + 1} /${pattern}/`)
      })
  }
  expect(offenders).toEqual([])
})

test('the check finds the shapes it is meant to', () => {
  expect(literals("const p = raw.replace(/\\/+$/, '') || '/'")).toEqual(['\\/+$'])
  expect(backtracks('\\/+$')).toBe(true)
  expect(backtracks('^Bearer(?:\\s+(.*))?$')).toBe(true)
  expect(backtracks('^\\d+$')).toBe(false)
  expect(backtracks('^[A-Za-z0-9_-]{1,128}$')).toBe(false)
})
