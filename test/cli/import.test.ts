// `svc import`: the CLI routes with the program's manage key, progress on stderr, the report on stdout.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Api, startApi } from '../helpers.ts'
import { startFake, world } from '../imports/fake-sources.ts'
import { runCli, tempHome } from './run-cli.ts'

let api: Api
const home = tempHome()
beforeAll(async () => {
  api = await startApi({ env: { ALLOW_PRIVATE_URLS: 'true' } })
})
afterAll(async () => {
  await api.stop()
  home.cleanup()
})

const cli = (args: string[]) => runCli(args, { ...home.env, SVC_BASE_URL: api.url })

test('svc import tolt imports with the manage key and prints what it added; --dry-run writes nothing', async () => {
  const fake = startFake('tolt', world(3))
  try {
    const { programId, apiKey } = await api.setupProgram()
    const common = ['--api-key', apiKey, '--source-key', fake.credentials.api_key!, '--source-url', fake.url]
    const dry = await cli(['import', 'tolt', ...common, '--source-program-id', fake.credentials.source_program_id!, '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('done (dry run: nothing written)')
    expect(dry.stdout).toMatch(/commissions\s+7/)
    expect((await api.admin('GET', `/programs/${programId}/commissions`)).body.data).toEqual([])

    const real = await cli(['import', 'tolt', ...common, '--source-program-id', fake.credentials.source_program_id!, '--json'])
    expect(real.code).toBe(0)
    const answer = JSON.parse(real.stdout).data
    expect(answer).toMatchObject({ source: 'tolt', status: 'done', dry_run: false })
    expect(answer.counts).toMatchObject({ partners: 3, links: 3, commissions: 7, payouts: 1 })
    expect(answer).not.toHaveProperty('api_key')
  } finally {
    fake.stop()
  }
})

test('a failed import exits 1 with the source answer; a missing --source-key is a usage error', async () => {
  const fake = startFake('tolt', world(0))
  try {
    const { apiKey } = await api.setupProgram()
    const failed = await cli([
      'import',
      'tolt',
      '--api-key',
      apiKey,
      '--source-key',
      'wrong',
      '--source-url',
      fake.url,
      '--source-program-id',
      'prg_1',
    ])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('tolt answered 401: Invalid API key')
    const usage = await cli(['import', 'tolt', '--api-key', apiKey])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('--source-key')
    // Another program's key does not read this program's import.
    const started = await api.call('POST', '/api/v1/cli/imports', {
      token: apiKey,
      body: { source: 'tolt', api_key: 'k', base_url: fake.url },
    })
    expect(started.status).toBe(202)
    const other = await api.setupProgram()
    const reply = await api.call('GET', `/api/v1/cli/imports/${started.body.data.import_id}`, { token: other.apiKey })
    expect(reply.status).toBe(404)
    expect(reply.body.error.message).toBe('Import not found')
  } finally {
    fake.stop()
  }
})
