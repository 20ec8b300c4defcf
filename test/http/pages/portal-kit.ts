// The partner portal's test kit: a server with SMTP (smtp-server) behind a trusted proxy, and the
// steps the session and sign-in tests take through it (links, portal visits, status changes,
// applicants, received emails).
import { afterAll, beforeAll, expect } from 'bun:test'
import { type Api, startApi } from '../../helpers.ts'
import { type Smtp, startSmtp } from '../../outbox/smtp.ts'
import { followLink } from './sessions.ts'

export const signedIn = { status: 200, location: null }
export const signedOut = { status: 303, location: expect.stringMatching(/\/sign-in$/) }
export const cookieOf = (response: Response) => response.headers.get('set-cookie')!.split(';')[0] as string

let n = 0
export const unique = (prefix: string) => `${prefix}-${++n}-${Math.random().toString(36).slice(2, 7)}`

export type PortalKit = Awaited<ReturnType<typeof startPortalKit>>

/** Starts a kit before the file's tests (handing it to `started`) and stops it after them. */
export function withPortalKit(started: (kit: PortalKit) => void): void {
  let kit: PortalKit
  beforeAll(async () => {
    kit = await startPortalKit()
    started(kit)
  })
  afterAll(() => kit.stop())
}

/** Starts the SMTP server and the server; `stop()` ends both. */
export async function startPortalKit() {
  const smtp: Smtp = await startSmtp()
  const api: Api = await startApi({ env: { SMTP_URL: smtp.url, SVC_RATE_LIMIT_SCALE: '1000', TRUST_PROXY: 'true' } })

  /** What `/partner` answers the browser holding `cookie`: 200 signed in, else the redirect to a sign-in page. */
  async function portal(cookie: string): Promise<{ status: number; location: string | null }> {
    const reply = await fetch(`${api.url}/partner`, { headers: { cookie }, redirect: 'manual' })
    await reply.text()
    return { status: reply.status, location: reply.headers.get('location') }
  }

  /** A one-time portal link for the partner, made by the operator. */
  const portalLink = async (programId: number, partnerId: number) => {
    const reply = await api.admin('POST', `/programs/${programId}/partners/${partnerId}/portal-link`)
    expect(reply.status).toBe(200)
    return reply.body.data.url as string
  }

  /** A partner's browser signed in through a link, and a second link left unused in their mailbox. */
  async function signedInPartner(programId: number, partnerId: number) {
    const cookie = cookieOf(await followLink(api, await portalLink(programId, partnerId)))
    return { cookie, unused: await portalLink(programId, partnerId) }
  }

  /** The partner's sessions are over for good: the cookie, and the link they had not used yet (410). */
  async function expectEnded(partner: { cookie: string; unused: string }) {
    expect(await portal(partner.cookie)).toEqual(signedOut)
    expect((await followLink(api, partner.unused)).status).toBe(410)
  }

  const act = (programId: number, partnerId: number, action: string) =>
    api.admin('POST', `/programs/${programId}/partners/${partnerId}/${action}`, action === 'reject' ? { reason: 'no' } : undefined)

  /** A program under `approval` with one pending applicant (by the join form): its ids and the applicant's email. */
  async function pendingApplicant() {
    const programName = unique('Shop')
    const f = await api.setupProgram({ partner_signup: 'approval', name: programName })
    const email = `${unique('applicant')}@partner.test`
    const applied = await api.call('POST', `/join/${f.programId}`, {
      body: { name: 'Applicant', email },
      headers: { 'x-forwarded-for': unique('ip') },
    })
    expect(applied.status).toBeLessThan(300)
    const pending = (await api.admin('GET', `/programs/${f.programId}/partners?status=pending`)).body.data
    const partnerId = pending.find((p: { email: string }) => p.email === email).partner_id as number
    return { ...f, partnerId, email, programName }
  }

  /** The emails the SMTP server got for `to` whose text holds `words` (waits up to 2 s for the first). */
  async function mailsTo(to: string, words: string) {
    const found = () => smtp.received.filter((m) => m.to.includes(to) && m.text.includes(words))
    for (let i = 0; i < 100 && found().length === 0; i++) await Bun.sleep(20)
    return found()
  }

  return {
    api,
    smtp,
    portal,
    portalLink,
    signedInPartner,
    expectEnded,
    act,
    pendingApplicant,
    mailsTo,
    async stop() {
      await api.stop()
      await smtp.stop()
    },
  }
}
