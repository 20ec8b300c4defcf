import { expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliSuite } from './harness.ts'
import { cliCommand } from './run-cli.ts'

// Prompts appear only when stdin is a terminal; util-linux `script` gives the
// program a pseudo-terminal while the test still feeds its input.
const script = Bun.which('script')
const s = cliSuite()

test.skipIf(!script)('init on a terminal asks for missing fields and asks again after a bad answer', async () => {
  await s.loggedIn()
  const command = [...cliCommand(), 'init', '--name', 'Acme'].map((word) => `'${word}'`).join(' ')
  const proc = Bun.spawn([script!, '-qec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', ...s.env },
    stdin: new Blob(['acme.test\nbogus\nfixed\n5\n']),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [output, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  expect(code).toBe(0)
  expect(output).toContain('Your site (a domain such as example.com, or http://localhost:3901 while you test): ')
  expect(output).toContain('Invalid commission_type: bogus.')
  expect(output).toMatch(/Created program \d+\./)
  const sent = s.tap.seen.find((q) => q.path === '/api/v1/cli/init')!
  expect(JSON.parse(sent.body)).toEqual({ name: 'Acme', domain: 'acme.test', commission_type: 'fixed', commission_rate: 5 })
})

test.skipIf(!script)('init on a terminal offers to save the key; yes keeps it for status, and the answer n keeps nothing', async () => {
  await s.loggedIn()
  const run = async (answer: string) => {
    const command = [
      ...cliCommand(),
      'init',
      '--name',
      'Acme',
      '--domain',
      'acme.test',
      '--commission-type',
      'fixed',
      '--commission-rate',
      '5',
    ]
      .map((word) => `'${word}'`)
      .join(' ')
    const proc = Bun.spawn([script!, '-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', ...s.env },
      stdin: new Blob([answer]),
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [output, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
    expect(code).toBe(0)
    expect(output).toContain(`Save this API key for svc status and svc test on ${s.tap.url}? [Y/n]: `)
    return output
  }
  const keys = join(s.home.dir, 'config', 'svc', 'keys.json')
  await run('n\n')
  expect(existsSync(keys)).toBe(false)
  const output = await run('maybe\ny\n')
  expect(output).toContain('Answer y or n.')
  const apiKey = output.match(/API key: (\S+)/)![1]
  expect(JSON.parse(readFileSync(keys, 'utf8'))[s.tap.url].api_key).toBe(apiKey)
  const status = await s.run(['status', '--json'])
  expect(status.code).toBe(0)
  expect(s.tap.seen.filter((q) => q.path === '/api/v1/cli/status').at(-1)!.auth).toBe(`Bearer ${apiKey}`)
})
