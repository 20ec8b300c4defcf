import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ADMIN_TOKEN } from '../helpers.ts'

/**
 * A tree's own `npm run build:server` command, as arguments of `bun`, its output sent to `out`: the
 * contract suite and bench/cold-start.ts build the binary exactly as a user does.
 */
export function serverBuild(tree: string, out: string): string[] {
  const script: string = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')).scripts['build:server']
  const args = script
    .replace(/^bun /, '')
    .replace(/--outfile \S+/, '')
    .split(' ')
    .filter(Boolean)
  return [...args, '--outfile', out]
}

export interface Spawned {
  url: string
  stop(): Promise<number>
  /** Sends `signal` as is (SIGKILL for a crash). */
  kill(signal: NodeJS.Signals): void
  exited: Promise<number>
}

/** Starts a server command as a user would and waits for its "svc listening" line (15 s at most). */
export async function spawnServer(cmd: string[], env: Record<string, string>): Promise<Spawned> {
  const child = Bun.spawn(cmd, {
    cwd: `${import.meta.dir}/../..`,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_ADMIN_TOKEN: ADMIN_TOKEN, SVC_LOG_REQUESTS: 'false', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const reader = child.stdout.getReader()
  let text = ''
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    const { value, done } = await Promise.race([
      reader.read(),
      Bun.sleep(deadline - Date.now()).then(() => ({ value: undefined, done: true })),
    ])
    if (done) break
    text += new TextDecoder().decode(value)
    const match = text.match(/"url":"(http:\/\/[^"]+)"/)
    if (match) {
      reader.releaseLock()
      return {
        url: match[1],
        async stop() {
          child.kill('SIGTERM')
          return child.exited
        },
        kill: (signal) => child.kill(signal),
        exited: child.exited,
      }
    }
  }
  child.kill()
  throw new Error(`${cmd.join(' ')} did not start: ${text}${await new Response(child.stderr).text()}`)
}
