/**
 * The service's log: one JSON object per line on stdout, `time` (ISO 8601) first, then the
 * fields given. Lines are kept in memory and written together at the end of the event loop's turn
 * (setImmediate), so that a request costs one string and no console call of its own; the
 * ISO time is formatted once per millisecond, not once per line. With `holdMs` (the server's
 * log), lines that come less than `holdMs` after the last write wait until then: under load a
 * write per turn was one system call per batch of clicks, and the write was most of what the log
 * cost a click (issue 36); a quiet log still writes at the end of the turn. Nothing is lost at
 * shutdown: flush() writes what is pending, server.stop() calls it, and so does process exit. An
 * error or warn line is written at once, with what was pending before it: it comes before the
 * answer it explains (a 500, a refused id_token).
 */
export interface LineLog {
  /** Queues one line; it is written by the end of the current event-loop turn. */
  (line: Record<string, unknown>): void
  /** Writes every pending line now. */
  flush(): void
}

/** Past this many pending characters the lines are written at once (a burst never piles up). */
const MAX_PENDING = 64 * 1024

const live = new Set<() => void>()
let exitHooked = false

/** How long the server's log holds lines after a write (lineLog's `holdMs`): at most this late on a busy server. */
export const LOG_HOLD_MS = 20

/** A buffered log writing through `write` (each call gets whole lines, the last without its newline). */
export function lineLog(write: (text: string) => void = (text) => console.log(text), options: { holdMs?: number } = {}): LineLog {
  const holdMs = options.holdMs ?? 0
  let pending = ''
  let scheduled = false
  let lastMs = NaN
  let lastIso = ''
  let lastWrite = Number.NEGATIVE_INFINITY

  const flush = () => {
    scheduled = false
    if (pending === '') return
    const text = pending
    pending = ''
    if (holdMs > 0) lastWrite = performance.now()
    write(text)
  }

  const log = ((line: Record<string, unknown>) => {
    const ms = Date.now()
    if (ms !== lastMs) {
      lastMs = ms
      lastIso = new Date(ms).toISOString()
    }
    const fields = JSON.stringify(line)
    // `{"time":…` then the caller's fields in their order: what JSON.stringify({ time, ...line }) gave.
    const text =
      'time' in line
        ? JSON.stringify({ time: lastIso, ...line })
        : fields.length > 2
          ? `{"time":"${lastIso}",${fields.slice(1)}`
          : `{"time":"${lastIso}"}`
    pending = pending === '' ? text : `${pending}\n${text}`
    if (pending.length >= MAX_PENDING || line.level === 'error' || line.level === 'warn') flush()
    else if (!scheduled) {
      scheduled = true
      const wait = holdMs > 0 ? lastWrite + holdMs - performance.now() : 0
      if (wait > 0) setTimeout(flush, Math.ceil(wait))
      else setImmediate(flush)
    }
  }) as LineLog
  log.flush = flush

  live.add(flush)
  if (!exitHooked) {
    exitHooked = true
    process.on('exit', () => {
      for (const pendingFlush of live) pendingFlush()
    })
  }
  return log
}
