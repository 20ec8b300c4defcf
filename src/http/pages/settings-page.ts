// The Settings page of a program: its fields, origins, tracker snippet, keys, Stripe secret and
// where its email goes. Split from owner-pages.ts, the dashboard's other pages.
import type { Email } from '../../db/email-store.ts'
import type { ApiKey, Program } from '../../db/schema.ts'
import type { CommissionType } from '../../domain/commission.ts'
import { siteUrlOf } from '../../domain/site.ts'
import { when } from './format.ts'
import { html, type Safe } from './html.ts'
import { csrfField } from './layout.ts'
import { copyField, programHeader } from './owner-pages.ts'
import { COMMISSION_LABELS } from './program-form.ts'

/** Whether email is on, where it goes (no credentials), and the program's latest failures. */
export interface MailState {
  server: string | null
  from: string
  problems: Email[]
}

function mailPanel(mail: MailState | undefined): Safe {
  if (!mail) return html``
  return html`<section class="panel" id="email"><h2>Email</h2>${
    mail.server === null
      ? html`<p class="bad">Email is not sent: the server has no SMTP_URL. Every email is written to the server's log instead (one line each, <code>svc: mail to …</code>, with its link; listed as logged). Set SMTP_URL to send them.</p>`
      : html`<p class="ok">Email is on: sent through ${mail.server} as ${mail.from}.</p>`
  }${
    mail.problems.length === 0
      ? html`<p class="muted">No email of this program failed lately.</p>`
      : html`<table><thead><tr><th>To</th><th>Subject</th><th>Status</th><th class="hide-narrow">Last error</th></tr></thead><tbody>${mail.problems.map(
          (e) =>
            html`<tr><td>${e.toAddress}</td><td>${e.subject}</td><td>${e.status}${e.status === 'queued' ? html`<div class="muted">retry ${when(e.nextAttemptAt)}</div>` : ''}</td><td class="hide-narrow">${e.lastError ?? ''}</td></tr>`,
        )}</tbody></table>`
  }</section>`
}

/**
 * The Settings panel of track keys (docs/decisions.md, Safety, third round): the key to put on the
 * web server, which reports tracking and can do nothing else; made with a name, shown once, deleted.
 */
function trackKeysPanel(base: string, csrf: string, keys: ApiKey[], made: string | undefined): Safe {
  return html`<section class="panel" id="track-keys"><h2>Track keys</h2>
<p>Put a track key on your web server: it reports clicks, leads, sales and refunds and reads the readiness check, and can do nothing else (no webhooks, no review, no payouts). Keep the API key above for the <code>svc</code> command line.</p>
${made ? html`<div class="note" role="status"><p>New track key, shown only this once: store it now (for example as <code>SVC_API_KEY</code> on your web server).</p>${copyField('new-track-key', made, 'New track key')}</div>` : ''}
${
  keys.length === 0
    ? html`<p class="muted">No track key yet.</p>`
    : html`<table><thead><tr><th>Name</th><th>Key</th><th class="hide-narrow">Made</th><th></th></tr></thead><tbody>${keys.map(
        (k) =>
          html`<tr data-key="${k.id}"><td>${k.name ?? html`<span class="muted">no name</span>`}</td><td><code>${k.keyPrefix}${'•'.repeat(8)}</code></td><td class="hide-narrow">${when(k.createdAt)}</td>
<td><form method="post" action="${base}/settings/keys/${k.id}/delete" data-confirm="Delete this track key? It stops working at once.">${csrfField(csrf)}<button class="danger">Delete</button></form></td></tr>`,
      )}</tbody></table>`
}
<form class="row" method="post" action="${base}/settings/keys">${csrfField(csrf)}<label>Name <input name="name" maxlength="100" placeholder="web server"></label><button>Make a track key</button></form></section>`
}

const PROCESSORS = [
  { name: 'paddle', label: 'Paddle', secret: 'paddleWebhookSecret', hint: 'pdl_ntfset_…' },
  { name: 'lemonsqueezy', label: 'Lemon Squeezy', secret: 'lemonsqueezyWebhookSecret', hint: 'the secret you chose' },
  { name: 'polar', label: 'Polar', secret: 'polarWebhookSecret', hint: 'the endpoint secret' },
] as const

/** The merchant-of-record processors: each one's webhook URL and its write-only signing secret (docs/processors/). */
function processorsPanel(program: Program, base: string, baseUrl: string, csrf: string): Safe {
  return html`<section class="panel" id="processors"><h2>Paddle, Lemon Squeezy, Polar</h2>
<p class="muted">Selling through a merchant of record? Add the webhook URL in its dashboard and save the signing secret it gives you here. The secret is never shown again.</p>
${PROCESSORS.map(
  (
    p,
  ) => html`<h3>${p.label}</h3>${copyField(`${p.name}-webhook-url`, `${baseUrl}/api/v1/webhooks/${p.name}/${program.id}`, `${p.label} webhook URL`)}
<p>Signing secret: ${program[p.secret] ? html`<code>${'•'.repeat(12)}</code> (set)` : html`<span class="muted">not set</span>`}</p>
<form class="row" method="post" action="${base}/settings/processor">${csrfField(csrf)}<input type="hidden" name="processor" value="${p.name}"><label>New signing secret (write-only) <input name="secret" placeholder="${p.hint}" autocomplete="off" required></label><button>Save</button></form>`,
)}</section>`
}

/** A refused save of the Program form: what was typed, the refused field and why (the page answers 400 with it). */
export interface SettingsDraft {
  form: Record<string, string>
  field: string
  problem: string
}

/** GET /dashboard/programs/:id/settings: program fields, origins, tracker snippet, API key, track keys, Stripe, email. */
export function settingsPage(
  program: Program,
  data: {
    key: ApiKey | null
    trackKeys: ApiKey[]
    baseUrl: string
    csrf: string
    newKey?: string
    newTrackKey?: string
    mail?: MailState
    draft?: SettingsDraft
  },
): Safe {
  const base = `/dashboard/programs/${program.id}`
  const { csrf, key, baseUrl, draft } = data
  // After a refusal the fields show what was typed (a field the form did not send keeps the program's).
  const shown = (field: string, stored: string | number) => draft?.form[field] ?? String(stored)
  const invalid = (field: string) => (draft?.field === field ? html` aria-invalid="true"` : '')
  const types = ['percent', 'fixed', 'recurring_percent', 'recurring_fixed']
  const snippet = `<script>
  window.svc = window.svc || { q: [],
    init: function () { svc.q.push(["init", arguments]) },
    signup: function () { svc.q.push(["signup", arguments]) } };
</script>
<script src="${baseUrl}/tracker.js" data-svc-program-id="${program.id}" defer></script>`
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}"${value === current ? html` selected` : ''}>${label}</option>`
  const minimums = Object.entries(program.minimumPayouts)
    .map(([c, m]) => `${c} ${m}`)
    .join(', ')
  const leadAuth = shown('lead_auth', program.leadAuth)
  const partnerSignup = shown('partner_signup', program.partnerSignup)
  const fraudReview = shown('fraud_review', program.fraudReview)
  return html`${programHeader(program, '/settings')}
${data.newKey ? html`<section class="note" role="status"><h2>New API key</h2><p>Shown only this once: store it now (a secret manager, or <code>SVC_API_KEY</code>). The old key already answers 401.</p>${copyField('new-key', data.newKey, 'New API key')}</section>` : ''}
<section class="panel"><h2>Program</h2>${draft ? html`<p class="error" role="alert" data-field="${draft.field}">${draft.problem}</p>` : ''}<form class="stack" method="post" action="${base}/settings">${csrfField(csrf)}
<label>Name <input name="name" value="${shown('name', program.name)}" maxlength="200" required${invalid('name')}></label>
<label>Site <input name="domain" value="${shown('domain', siteUrlOf(program))}" maxlength="300" required${invalid('domain')}>
<span class="muted">Your site's address: a domain such as shop.example, or with its scheme and port while you test (http://localhost:3901). Partner links are made on it.</span></label>
<label>Commission type <select name="commission_type"${invalid('commission_type')}>${types.map((t) => option(t, COMMISSION_LABELS[t as CommissionType], shown('commission_type', program.commissionType)))}</select></label>
<label>Commission rate <input name="commission_rate" value="${shown('commission_rate', program.commissionRate)}" inputmode="decimal" required${invalid('commission_rate')}></label>
<label>Attribution window (days) <input name="attribution_window_days" value="${shown('attribution_window_days', program.attributionWindowDays)}" inputmode="numeric" required${invalid('attribution_window_days')}></label>
<label>Holding period (days before a commission is due) <input name="holding_period_days" value="${shown('holding_period_days', program.holdingPeriodDays)}" inputmode="numeric" required${invalid('holding_period_days')}></label>
<label>Currencies <input name="currencies" value="${shown('currencies', program.currencies.join(' '))}" maxlength="250" required${invalid('currencies')}>
<span class="muted">The ISO 4217 codes your sales may be in, such as USD EUR GBP JPY. A sale or processor event in another is refused.</span></label>
<label>Minimum payout (major units) <input name="minimum_payout" value="${shown('minimum_payout', program.minimumPayout)}" inputmode="decimal" required${invalid('minimum_payout')}></label>
<label>Minimum payout per currency <input name="minimum_payouts" value="${shown('minimum_payouts', minimums)}" maxlength="500" placeholder="JPY 5000, GBP 20"${invalid('minimum_payouts')}>
<span class="muted">Overrides the minimum above for these currencies, in major units.</span></label>
<label>Recurring months <input name="recurring_months" value="${shown('recurring_months', program.recurringMonths ?? '')}" inputmode="numeric" placeholder="no limit"${invalid('recurring_months')}>
<span class="muted">For the recurring types: months after a customer's first sale that their sales still pay. Empty: every sale, forever.</span></label>
<label>Signups (leads) count when reported <select name="lead_auth"${invalid('lead_auth')}>${option('server_required', 'by your server, with a key (recommended)', leadAuth)}${option('browser_allowed', 'by the browser too (the tracker)', leadAuth)}</select></label>
<label>Partners may join <select name="partner_signup"${invalid('partner_signup')}>${option('off', 'no: you add partners yourself', partnerSignup)}${option('approval', 'by applying on the join page; you approve each', partnerSignup)}${option('open', 'on the join page, approved at once', partnerSignup)}</select>
${program.partnerSignup === 'off' ? '' : html`<span class="muted">Join page: <a href="${baseUrl}/join/${program.id}">${baseUrl}/join/${program.id}</a></span>`}</label>
<label id="fraud-review">Fraud signals <select name="fraud_review"${invalid('fraud_review')}>${option('hold', 'hold for review (recommended)', fraudReview)}${option('flag', 'flag only, pay as usual', fraudReview)}${option('off', 'off: check nothing', fraudReview)}</select>
<span class="muted">Signals: the partner buying for themselves, the same IP as the partner, a throwaway email, a click from a paid ad, a burst of clicks. Held commissions wait on the Review tab.</span></label>
<div><button>Save</button></div></form></section>
<section class="panel" id="origins"><h2>Allowed origins</h2><p class="muted">Browser calls are accepted from ${siteUrlOf(program)}, https://${program.domain} and its https subdomains, and these exact origins (one a line).</p>
<form class="stack" method="post" action="${base}/settings/origins">${csrfField(csrf)}<label>Origins <textarea name="allowed_origins">${program.allowedOrigins.join('\n')}</textarea></label><div><button>Save origins</button></div></form></section>
<section class="panel" id="tracker"><h2>Tracker</h2><p>Put this on every page of your site (program id <b>${program.id}</b>), before <code>&lt;/body&gt;</code>:</p>
<textarea class="snippet" id="tracker-snippet" readonly rows="7" aria-label="Tracker snippet">${snippet}</textarea><div><button type="button" class="quiet" data-copy="tracker-snippet">Copy</button></div></section>
<section class="panel" id="api-key"><h2>API key</h2><p>Current key: <code>${key ? `${key.keyPrefix}${'•'.repeat(16)}` : 'none'}</code>${key?.rotateBy ? html` <span class="bad">marked for rotation: stops working at ${when(key.rotateBy)}</span>` : ''}</p>
<form method="post" action="${base}/settings/api-key" data-confirm="Regenerate the API key? The current key stops working at once: your server must get the new one.">${csrfField(csrf)}<button class="danger">Regenerate the key</button> <span class="muted">The old key stops at once.</span></form>
<h3>Rotation</h3><form class="row" method="post" action="${base}/settings/api-key/rotation">${csrfField(csrf)}<label>Stops working on <input type="date" name="rotate_by" required></label><button class="quiet">Mark for rotation</button></form>
<p class="muted">Until that date the key keeps working and every answer carries Deprecation and Sunset headers.</p></section>
${trackKeysPanel(base, csrf, data.trackKeys, data.newTrackKey)}
<section class="panel" id="stripe"><h2>Stripe</h2><p>Webhook URL (events <code>checkout.session.completed</code>, <code>invoice.payment_succeeded</code>, <code>charge.refunded</code> and <code>charge.dispute.created</code>):</p>
${copyField('webhook-url', `${baseUrl}/api/v1/webhooks/stripe/${program.id}`, 'Stripe webhook URL')}
<p>Signing secret: ${program.stripeWebhookSecrets.length ? html`<code>whsec_${'•'.repeat(12)}</code> (${program.stripeWebhookSecrets.length} set)` : html`<span class="bad">not set</span>`}</p>
<form class="stack" method="post" action="${base}/settings/stripe">${csrfField(csrf)}<label>New signing secret (write-only) <input name="stripe_webhook_secret" placeholder="whsec_…" autocomplete="off" required></label><div><button>Save secret</button></div></form></section>
${processorsPanel(program, base, baseUrl, csrf)}
${mailPanel(data.mail)}
<section class="panel" id="moving-in"><h2>Import</h2><p>Moving in from Rewardful, Tolt, FirstPromoter or PartnerStack? <a href="${base}/settings/import">Import your partners, links and commissions</a>.</p></section>`
}
