// The README's first command runs the service with `npm start`; a user (or systemd, or a shell's
// job control) stops it by signalling that process. The server must go with it: an npm script
// that left its bun child behind kept the port and the database open after `kill <npm pid>`.
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnServer } from './spawn.ts'

const refused = async (url: string) =>
  fetch(`${url}/healthz`).then(
    () => false,
    () => true,
  )

test('SIGTERM to the `npm start` process stops the server it started: the port is free afterwards', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-start-'))
  try {
    const server = await spawnServer(['npm', 'start', '--silent'], { DATABASE_PATH: join(dir, 'svc.db') })
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    // stop() signals the npm process itself, as `kill <pid of npm start>` does.
    expect(await server.stop()).toBe(0)
    let gone = false
    for (let i = 0; i < 50 && !gone; i++) {
      gone = await refused(server.url)
      if (!gone) await Bun.sleep(100)
    }
    expect(gone).toBe(true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)
