/**
 * The service's log: one JSON object per line on stdout, `time` (ISO 8601) first, then the
 * fields given. Lines are kept in memory and written together once per turn of the event loop
 * (setImmediate), so that a request costs one string and no console call of its own; the
 * ISO time is formatted once per millisecond, not once per line. Nothing is lost at shutdown:
 * flush() writes what is pending, server.stop() calls it, and so does process exit. An error
 * or warn line is written at once, with what was pending before it: it comes before the answer it
 * explains (a 500, a refused id_token).
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

/** A buffered log writing through `write` (each call gets whole lines, the last without its newline). */
export function lineLog(write: (text: string) => void = (text) => console.log(text)): LineLog {
  let pending = ''
  let scheduled = false
  let lastMs = NaN
  let lastIso = ''

  const flush = () => {
    scheduled = false
    if (pending === '') return
    const text = pending
    pending = ''
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
      setImmediate(flush)
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
