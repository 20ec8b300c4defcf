/**
 * Child processes of the benchmark: every server it starts is tracked here and killed at the end,
 * on error, on Ctrl-C and on the watchdog, so that a run never leaves a server behind.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

export interface Child {
  name: string
  proc: Subprocess
  url: string
  port: number
  logPath: string
}

const children = new Set<Child>()

/** A free TCP port on 127.0.0.1, found by binding port 0 and closing. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/** Starts `cmd` with stdout and stderr appended to logPath; stdin stays a pipe (the baselines exit when it closes). */
export function spawnChild(name: string, cmd: string[], options: { env?: Record<string, string>; port: number; logPath: string }): Child {
  const fd = openSync(options.logPath, 'a')
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...options.env }, stdin: 'pipe', stdout: fd, stderr: fd })
  closeSync(fd)
  const child = { name, proc, url: `http://127.0.0.1:${options.port}`, port: options.port, logPath: options.logPath }
  children.add(child)
  return child
}

/** Polls until the child answers any HTTP request on `probePath` (at most `timeoutMs`); throws with its log tail otherwise. */
export async function waitReady(child: Child, probePath = '/', timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (let attempt = 0; attempt < 300 && Date.now() < deadline; attempt++) {
    if (child.proc.exitCode !== null) break
    try {
      await fetch(child.url + probePath, { signal: AbortSignal.timeout(1000) })
      return
    } catch {
      await Bun.sleep(50)
    }
  }
  throw new Error(`${child.name} did not start (exit ${child.proc.exitCode}); log tail:\n${logTail(child)}`)
}

export function logTail(child: Child, lines = 20): string {
  try {
    return readFileSync(child.logPath, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}

/** Resident memory of a live child in MB, from /proc/<pid>/status VmRSS (null when unreadable). */
export function rssMb(child: Child): number | null {
  try {
    const status = readFileSync(`/proc/${child.proc.pid}/status`, 'utf8')
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1])
    return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : null
  } catch {
    return null
  }
}

/** CPU seconds a live child has used so far, user and system apart, from /proc/<pid>/stat (null when unreadable). */
export function cpuSeconds(child: Child): { user: number; system: number } | null {
  try {
    const stat = readFileSync(`/proc/${child.proc.pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces) start at the last ')': utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }
  } catch {
    return null
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
export async function stopChild(child: Child, graceMs = 3000): Promise<void> {
  if (!children.has(child)) return
  children.delete(child)
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return
  child.proc.kill('SIGTERM')
  const exited = await Promise.race([child.proc.exited.then(() => true), Bun.sleep(graceMs).then(() => false)])
  if (!exited) {
    child.proc.kill('SIGKILL')
    await Promise.race([child.proc.exited, Bun.sleep(graceMs)])
  }
}

/** Kills every child still running, synchronously (for process 'exit' and signal handlers). */
export function killAllNow(): void {
  for (const child of children) {
    try {
      child.proc.kill('SIGKILL')
    } catch {
      /* already gone */
    }
  }
  children.clear()
}

/**
 * A temporary folder for one run, removed with every started child at exit, on error and on
 * Ctrl-C (SIGINT/SIGTERM exit 130), so that a run leaves neither a server nor files behind.
 */
export function runFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix))
  const cleanup = () => {
    killAllNow()
    rmSync(folder, { recursive: true, force: true })
  }
  process.on('exit', cleanup)
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      cleanup()
      process.exit(130)
    })
  return folder
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)))
}
