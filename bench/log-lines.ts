// The request log alone (issue 36): what a line costs the event loop's thread, written as the
// server writes it (src/log.ts through console.log), 16 lines per turn as the click bench's
// batches give them, with and without the server's hold between writes. Send stdout to a file on
// the disk, as a service's log goes (the figures are printed on stderr):
//   bun bench/log-lines.ts > /tmp/log-lines.out; rm /tmp/log-lines.out
import { LOG_HOLD_MS, lineLog } from '../src/log.ts'

const TURNS = 8000
const PER_TURN = 16
const ids = Array.from({ length: 1024 }, () => crypto.randomUUID())
const turn = () => new Promise((resolve) => setImmediate(resolve))

for (let round = 1; round <= 4; round++) {
  for (const holdMs of [0, LOG_HOLD_MS]) {
    let writes = 0
    const log = lineLog(
      (text) => {
        writes++
        console.log(text)
      },
      { holdMs },
    )
    const began = process.cpuUsage()
    for (let t = 0; t < TURNS; t++) {
      for (let i = 0; i < PER_TURN; i++) {
        const request_id = ids[(t * PER_TURN + i) & 1023]
        log({ level: 'info', method: 'POST', route: '/api/v1/track/click', status: 200, duration_ms: 1.23, request_id })
      }
      await turn()
    }
    log.flush()
    const used = process.cpuUsage(began)
    const lines = TURNS * PER_TURN
    console.error(
      `round ${round}, hold ${holdMs} ms: ${((used.user + used.system) / lines).toFixed(3)} µs CPU per line (${(used.system / lines).toFixed(3)} system), ${(lines / writes).toFixed(0)} lines per write`,
    )
  }
}
