import type { NewEmail } from '../db/email-store.ts'

// The emails svc sends (docs/decisions.md, Email), each a plain-text and a simple HTML body with
// the program's name and links absolute on PUBLIC_BASE_URL. Every value from outside (a name, a
// program's name, a reason) is escaped in the HTML and kept on one line in the subject.

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** A subject on one line of at most 150 characters, whatever the names in it hold. */
const oneLine = (text: string) => {
  let out = ''
  for (const char of text) out += char < ' ' || char === '\u007f' ? ' ' : char
  return out.slice(0, 150)
}

interface Body {
  /** Paragraphs of text; a link is written as its URL in the text and as an anchor in the HTML. */
  paragraphs: (string | { link: string; label: string })[]
}

function compose(
  to: string,
  subject: string,
  body: Body,
  extra: Omit<NewEmail, 'to' | 'subject' | 'text' | 'html' | 'kind'> & Pick<NewEmail, 'kind'>,
): NewEmail {
  const text = body.paragraphs.map((p) => (typeof p === 'string' ? p : `${p.label}:\n${p.link}`)).join('\n\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1c2430">${body.paragraphs
    .map((p) => (typeof p === 'string' ? `<p>${escapeHtml(p)}</p>` : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.label)}</a></p>`))
    .join('')}</body></html>`
  return { to, subject: oneLine(subject), text, html, ...extra }
}

// A partner's or applicant's email greets no one by name: the name is the applicant's own
// typing, and the join form must not carry a stranger's words to a victim's inbox
// (docs/decisions.md, Safety, third round). Only the program's words and links go to them.
const HELLO = 'Hello,'

/** To an applicant: the application was received and waits for the owner's decision. */
export function applicationReceived(program: { id: number; name: string }, to: string): NewEmail {
  return compose(
    to,
    `Your application to ${program.name}`,
    {
      paragraphs: [
        HELLO,
        `thank you for applying to the ${program.name} partner program. The program's owner reviews each application and you will get an email when they decide.`,
      ],
    },
    { kind: 'application_received', programId: program.id },
  )
}

/** To the account's email: a new application, with where to approve or reject it. */
export function newApplication(
  program: { id: number; name: string },
  owner: string,
  applicant: { name: string; email: string; website: string | null; promotion: string | null },
  reviewUrl: string,
  pending: boolean,
): NewEmail {
  const who = `${applicant.name} <${applicant.email}>`
  return compose(
    owner,
    `${pending ? 'New partner application' : 'New partner'} for ${program.name}: ${who}`,
    {
      // The dashboard's link comes before anything the applicant wrote: it is the first link in the
      // email, the one the server's log names when there is no SMTP_URL.
      paragraphs: [
        `${who} ${pending ? 'applied to become a partner of' : 'joined'} ${program.name}.`,
        { link: reviewUrl, label: pending ? 'Review the application' : 'See the partner' },
        pending
          ? 'Approve or reject the application on the dashboard.'
          : 'The program approves partners at once; you can suspend one on the dashboard.',
        `Name: ${applicant.name}\nEmail: ${applicant.email}\nWebsite: ${applicant.website ?? '(none given)'}`,
        `How they will promote ${program.name}:\n${applicant.promotion ?? '(not said)'}`,
      ],
    },
    { kind: 'new_application', programId: program.id },
  )
}

/** To an approved partner: their referral link and a one-time portal sign-in link. */
export function applicationApproved(
  program: { id: number; name: string },
  to: string,
  links: { referralUrl: string | null; signInUrl: string; signInPage: string; lifetime: string },
): NewEmail {
  return compose(
    to,
    `${program.name} approved your application`,
    {
      paragraphs: [
        HELLO,
        `${program.name} approved your application.`,
        // The portal's link first: it is the one the server's log names when there is no SMTP_URL.
        { link: links.signInUrl, label: `Open your partner portal (this link works once, for ${links.lifetime})` },
        links.referralUrl
          ? `Your referral link (share it anywhere; visits through it count for you): ${links.referralUrl}`
          : 'Your referral link is waiting in your partner portal: share it anywhere, visits through it count for you.',
        `Later, ask for a new sign-in link at ${links.signInPage}`,
      ],
    },
    { kind: 'application_approved', programId: program.id, secret: true },
  )
}

/** To a rejected applicant, with the owner's reason when one was given. */
export function applicationRejected(program: { id: number; name: string }, to: string, reason: string | null): NewEmail {
  return compose(
    to,
    `Your application to ${program.name}`,
    {
      paragraphs: [HELLO, `${program.name} did not accept your application.`, ...(reason ? [`Their note: ${reason}`] : [])],
    },
    { kind: 'application_rejected', programId: program.id },
  )
}

/** To a partner: a payout was marked paid. */
export function payoutPaid(
  program: { id: number; name: string },
  to: string,
  amount: string,
  reference: string | null,
  portalUrl: string,
): NewEmail {
  return compose(
    to,
    `${program.name} paid you ${amount}`,
    {
      paragraphs: [
        HELLO,
        `${program.name} marked a payout of ${amount} to you as paid${reference ? ` (reference ${reference})` : ''}.`,
        { link: portalUrl, label: 'See your payouts in the partner portal' },
      ],
    },
    { kind: 'payout_paid', programId: program.id },
  )
}

/** A one-time sign-in link to whoever asked for it with their stored email. */
export function signInLink(to: string, where: string, url: string, programId: number | null): NewEmail {
  return compose(
    to,
    `Your sign-in link for ${where}`,
    {
      paragraphs: [
        `Someone (we hope you) asked to sign in to ${where} with this email address.`,
        { link: url, label: 'Sign in (this link works once, for 10 minutes)' },
        'If it was not you, ignore this email: nothing happens without the link.',
      ],
    },
    { kind: 'sign_in', programId, secret: true },
  )
}

/** To the account's email: an endpoint that failed for 3 days was set inactive. */
export function webhookDisabled(program: { id: number; name: string }, owner: string, url: string, pageUrl: string): NewEmail {
  return compose(
    owner,
    `A webhook endpoint of ${program.name} was turned off`,
    {
      paragraphs: [
        `Every delivery to ${url} failed for 3 days, so svc set the endpoint inactive. Its events are kept: fix the receiver, turn the endpoint on again and retry its deliveries.`,
        { link: pageUrl, label: 'Open the Webhooks page' },
      ],
    },
    { kind: 'webhook_disabled', programId: program.id },
  )
}

/** To an invited member: which account, their role, and a sign-in link (docs/decisions.md, Teams and the audit log). */
export function memberInvitation(to: string, accountName: string, role: string, url: string): NewEmail {
  return compose(
    to,
    `You were added to ${accountName} on svc`,
    {
      paragraphs: [
        `You were added to the svc dashboard of ${accountName} as ${role === 'admin' ? 'an admin' : 'a viewer'}.`,
        { link: url, label: 'Sign in (this link works once, for 10 minutes)' },
        'Later, sign in at /sign-in with this email address: there is no password.',
      ],
    },
    { kind: 'sign_in', programId: null, secret: true },
  )
}
