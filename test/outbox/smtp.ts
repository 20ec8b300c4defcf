import { type AddressObject, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Received {
  from: string
  to: string[]
  subject: string
  text: string
  html: string
  headers: Map<string, unknown>
}

/**
 * A real SMTP server on 127.0.0.1 for the tests (the `smtp-server` package), every message parsed
 * with `mailparser`. No STARTTLS and no AUTH: svc's smtp:// URL then sends in the clear, as to a
 * local relay. `stop()` takes it down; `start()` brings it back on the same port.
 */
export async function startSmtp(port = 0) {
  const received: Received[] = []
  let server: SMTPServer | null = null
  let bound = port
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, session, callback) {
          simpleParser(stream)
            .then((mail) => {
              const to = session.envelope.rcptTo.map((r) => r.address)
              received.push({
                from: (mail.from as AddressObject | undefined)?.text ?? '',
                to,
                subject: mail.subject ?? '',
                text: mail.text ?? '',
                html: typeof mail.html === 'string' ? mail.html : '',
                headers: mail.headers,
              })
              callback()
            })
            .catch(callback)
        },
      })
      server.on('error', () => {})
      server.listen(bound, '127.0.0.1', () => {
        bound = (server!.server.address() as { port: number }).port
        resolve()
      })
      server.server.once('error', reject)
    })
  await start()
  return {
    get port() {
      return bound
    },
    get url() {
      return `smtp://127.0.0.1:${bound}`
    },
    received,
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    /** Waits (up to `ms`) until `count` messages have arrived; answers them. */
    async waitFor(count: number, ms = 5000): Promise<Received[]> {
      for (const deadline = Date.now() + ms; received.length < count && Date.now() < deadline; ) await Bun.sleep(20)
      return received
    },
  }
}

export type Smtp = Awaited<ReturnType<typeof startSmtp>>
