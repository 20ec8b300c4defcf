import type { Transporter } from 'nodemailer'
import type { Email, EmailStore } from '../db/email-store.ts'
import { emailRetryAt } from './schedule.ts'
import { type Courier, shortError } from './sender.ts'

/** How long a claimed email is left to its sender before another claim may take it. */
const LEASE_MS = 60_000

/**
 * The email outbox's courier: SMTP through nodemailer (STARTTLS when offered on smtp://, TLS on
 * smtps://). `from` gives each email its From (MAIL_FROM, or the program's name on svc's address).
 */
export function emailCourier(store: EmailStore, smtpUrl: string, from: (email: Email) => string): Courier<Email> {
  // nodemailer is loaded with the first email, not at start (issue 36: about 40 ms and a few MB).
  let transport: Promise<Transporter> | null = null
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }),
    ))
  return {
    anyDue: (now) => store.anyDue(now),
    claim: (now) => store.claim(now, LEASE_MS, 20),
    async deliver(email) {
      // The envelope is the stored address alone: never a header written from a request.
      const sender = from(email)
      await (await transporter()).sendMail({
        from: sender,
        to: email.toAddress,
        envelope: { from: addressOf(sender), to: [email.toAddress] },
        subject: email.subject,
        text: email.textBody,
        html: email.htmlBody,
      })
    },
    sent: (email, now) => store.markSent(email.id, now),
    failed: (email, error, now) =>
      store.markAttemptFailed(email.id, shortError(error), emailRetryAt(email.attempts + 1, email.createdAt, now)),
  }
}

/**
 * The email outbox's courier without SMTP_URL (docs/decisions.md, The first hour): nothing is
 * lost, each email is one stderr line `svc: mail to <address>: <subject> <first link in it>`
 * (none with MAIL_LOG=off) and recorded as `logged`. So a solo owner signs in again by asking
 * /sign-in and reading the terminal.
 */
export function logCourier(store: EmailStore, write: ((line: string) => void) | null): Courier<Email> {
  return {
    anyDue: (now) => store.anyDue(now),
    claim: (now) => store.claim(now, LEASE_MS, 20),
    async deliver(email) {
      const link = firstLink(email.textBody)
      write?.(printable(`svc: mail to ${email.toAddress}: ${email.subject}${link ? ` ${link}` : ''}`))
    },
    sent: (email, now) => store.markSent(email.id, now, 'logged'),
    failed: (email, error, now) =>
      store.markAttemptFailed(email.id, shortError(error), emailRetryAt(email.attempts + 1, email.createdAt, now)),
  }
}

/**
 * A log line as a terminal shows it, whatever its parts held: control characters (C0, DEL, C1),
 * line and paragraph separators and bidirectional overrides become '?', so that no name in a
 * subject can start a line of its own or reorder what the operator reads.
 */
export function printable(line: string): string {
  let out = ''
  for (const char of line) {
    const code = char.codePointAt(0)!
    const hidden =
      code < 0x20 ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x2028 ||
      code === 0x2029 ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069)
    out += hidden ? '?' : char
  }
  return out
}

/** The first http(s) URL of a text, up to the next white space; null when it has none. Read by hand, no expression. */
export function firstLink(text: string): string | null {
  const http = text.indexOf('http://')
  const https = text.indexOf('https://')
  const start = http < 0 ? https : https < 0 ? http : Math.min(http, https)
  if (start < 0) return null
  let end = start
  while (end < text.length && text.charCodeAt(end) > 32) end++
  return text.slice(start, end)
}

/**
 * The From of a program's email when MAIL_FROM is unset (docs/decisions.md, The first hour): the
 * program's name, quoted, on the default address, so that partners see "Acme Partners", not "svc".
 */
export function programFrom(defaultFrom: string, programName: string | null): string {
  if (programName === null) return defaultFrom
  // No quote, backslash or control character, and none of <>@,; either: a name that looks like an
  // address ("PayPal <security@paypal.com>") would be shown as one by many mail programs.
  let name = ''
  for (const char of programName) name += char < ' ' || char === '\u007f' || '"\\<>@,;'.includes(char) ? ' ' : char
  return `"${name.trim().slice(0, 100)}" <${addressOf(defaultFrom)}>`
}

/** The bare address of a From ("Shop <p@shop.test>" → "p@shop.test"). */
function addressOf(from: string): string {
  const open = from.lastIndexOf('<')
  const close = from.lastIndexOf('>')
  return open >= 0 && close > open ? from.slice(open + 1, close) : from.trim()
}
