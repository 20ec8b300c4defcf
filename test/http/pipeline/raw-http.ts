import net from 'node:net'

export interface RawReply {
  status: number
  headers: Record<string, string>
  text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any
  /** The connection was reset or broke before a whole answer arrived. */
  reset: boolean
}

/**
 * One HTTP/1.1 request written by hand on its own connection (`Connection: close`), so that a
 * test can send what fetch refuses to: any Host header or none, any request target, a body that
 * keeps coming after the answer. `body` chunks are written in order, each awaited.
 */
export function rawRequest(
  port: number,
  head: string,
  body: (string | Uint8Array)[] = [],
  options: { hangUpWhenAnswered?: boolean } = {},
): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let broken = false
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      // A client that reads the answer and goes, instead of waiting for the server to close.
      if (options.hangUpWhenAnswered && answered(Buffer.concat(chunks))) socket.destroy()
    })
    socket.on('error', () => {
      broken = true
    })
    socket.on('close', () => resolve(parse(Buffer.concat(chunks), broken)))
    socket.write(head)
    ;(async () => {
      for (const chunk of body) {
        if (broken || socket.destroyed) return
        await new Promise<void>((done) => socket.write(chunk, () => done()))
      }
    })()
  })
}

/** A whole answer with a Content-Length has arrived. */
function answered(bytes: Buffer): boolean {
  const reply = parse(bytes, false)
  return reply.status !== 0 && reply.headers['content-length'] !== undefined && !reply.reset && reply.json !== undefined
}

function parse(bytes: Buffer, broken: boolean): RawReply {
  const text = bytes.toString('latin1')
  const split = text.indexOf('\r\n\r\n')
  if (split === -1) return { status: 0, headers: {}, text: '', json: undefined, reset: true }
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let raw = bytes.subarray(Buffer.byteLength(text.slice(0, split + 4), 'latin1'))
  if (headers['transfer-encoding'] === 'chunked') raw = dechunk(raw)
  else if (headers['content-length'] !== undefined) raw = raw.subarray(0, Number(headers['content-length']))
  const body = raw.toString('utf8')
  let json: any
  try {
    json = JSON.parse(body)
  } catch {
    json = undefined
  }
  const complete = headers['content-length'] === undefined || raw.length === Number(headers['content-length'])
  return { status: Number(statusLine.split(' ')[1]), headers, text: body, json, reset: broken && !complete }
}

function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  while (at < raw.length) {
    const end = raw.indexOf('\r\n', at)
    if (end === -1) break
    const size = parseInt(raw.subarray(at, end).toString('latin1'), 16)
    if (!size) break
    parts.push(raw.subarray(end + 2, end + 2 + size))
    at = end + 2 + size + 2
  }
  return Buffer.concat(parts)
}
