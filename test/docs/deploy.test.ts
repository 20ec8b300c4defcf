// The VM deployment files agree with what the service reads: the env template names every
// variable, and Caddy sends requests where the systemd unit listens.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(import.meta.dir, '../..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

test('deploy/svc.env.example names every variable of the configuration and of the entrypoint', () => {
  const template = read('deploy/svc.env.example')
  const config = read('src/config.ts')
  const environment = config.slice(
    config.indexOf('const Environment = z.object({'),
    config.indexOf('})\n', config.indexOf('const Environment')),
  )
  const names = [...environment.matchAll(/^ {2}([A-Z_]+):/gm)].map((m) => m[1]!)
  const entrypoint = [...read('deploy/entrypoint.sh').matchAll(/\bLITESTREAM_[A-Z_]+/g)].map((m) => m[0])
  expect(names.length).toBeGreaterThan(8)
  for (const name of new Set([...names, ...entrypoint])) expect({ name, named: template.includes(name) }).toEqual({ name, named: true })
})

test('the Caddyfile proxies to the address the systemd unit listens on, and the env template trusts one proxy', () => {
  const unit = read('deploy/svc.service')
  const port = unit.match(/PORT=(\d+)/)![1]
  const host = unit.match(/HOST=([\d.]+)/)![1]
  expect(read('deploy/Caddyfile')).toContain(`reverse_proxy ${host}:${port}`)
  expect(read('deploy/svc.env.example')).toMatch(/^TRUST_PROXY=true$/m)
})
