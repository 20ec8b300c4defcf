import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const MAIN = resolve(import.meta.dir, '../../src/cli/main.ts')

export type CliResult = { code: number; stdout: string; stderr: string }

/**
 * A throwaway home for one test: HOME and XDG_CONFIG_HOME point into a temp
 * dir so the real user's config is never read or written.
 */
export function tempHome() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'))
  const home = {
    dir,
    configFile: join(dir, 'config', 'svc', 'config.json'),
    env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') } as Record<string, string>,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
  return home
}

/**
 * The command that starts the program: `bun src/cli/main.ts`, or the compiled
 * binary when SVC_CLI_BIN names one (`SVC_CLI_BIN=dist/svc bun test test/cli`),
 * so the same suite checks what ships.
 */
export function cliCommand(): string[] {
  const bin = process.env.SVC_CLI_BIN
  return bin ? [resolve(bin)] : [process.execPath, MAIN]
}

/**
 * Runs the real program as a subprocess. Async on purpose: the server under
 * test lives in this process and must keep answering. Only PATH is inherited,
 * so no SVC_* variable of the developer leaks in.
 */
export async function runCli(args: string[], env: Record<string, string>, stdin?: string): Promise<CliResult> {
  const proc = Bun.spawn([...cliCommand(), ...args], {
    env: { PATH: process.env.PATH ?? '', SVC_POLL_INTERVAL_MS: '20', ...env },
    stdin: stdin === undefined ? 'ignore' : new Blob([stdin]),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}
