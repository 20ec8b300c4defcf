import { version } from '../../package.json'

/** `svc --version`: the version of the package the CLI was built from. */
export const VERSION = `svc ${version}`

/** Usage text, printed by --help (stdout, exit 0) and pointed to by usage errors. */
export const USAGE = `svc: command-line tool for the referral tracking service

Usage: svc <command> [flags]        (from a clone: npm exec svc -- <command> [flags])

Commands:
  login [--id-token TOKEN]   Sign in (opens a login URL; --id-token for headless use)
  logout                     Forget the saved login token
  init                       Create a program (needs login)
      --name NAME  --domain DOMAIN
      --commission-type percent|fixed|recurring_percent|recurring_fixed
      --commission-rate NUMBER
      --save | --no-save     keep the new API key for status and test (asked on a terminal)
  programs                   List your programs (needs login)
  dashboard                  Print a one-time sign-in link to the dashboard (needs login)
  status                     Show the program's status (needs a program API key)
  test [click|lead|sale|chain]
                             Send a synthetic test event (default: chain; needs a program API key)
  stripe replay FILE         Sign a saved Stripe event and POST it to the webhook route
      --program-id ID | --connect
      --secret SECRET        (or SVC_STRIPE_WEBHOOK_SECRET)
      --timestamp UNIX       signature time (default: now)
  paddle|lemonsqueezy|polar replay FILE
                             Sign a saved Paddle, Lemon Squeezy or Polar event as it does and POST it
      --program-id ID  --secret SECRET (or SVC_PADDLE_WEBHOOK_SECRET, …)  --timestamp UNIX
  webhooks list | add | test ID | deliveries ID
                             The program's webhook endpoints (needs a program API key)
      --url URL  --events a,b  --description TEXT   (add)
  review list | approve ID | reject ID [--reason TEXT]
                             Commissions held for review by the fraud signals (needs a program API key)
  import SOURCE --source-key KEY [--dry-run]
                             Move the program in from rewardful, tolt, firstpromoter or partnerstack
                             (needs a program API key; docs/imports.md)
      --source-url URL  --source-program-id ID (tolt)  --account-id ID (firstpromoter)
  verify STATEMENT [--previous EARLIER] [--key JWK_FILE_OR_URL]
                             Check a partner's signed statement, that it extends an earlier one,
                             and with --key that the server's key signed it

Global flags:
  --base-url URL     Server address (default: SVC_BASE_URL, then the URL saved by login,
                     then http://localhost:3000)
  --api-key KEY      Program API key for status, test, webhooks and review (or SVC_API_KEY, then the key
                     saved by init --save for this server)
  --json             Print the server's raw JSON answer on stdout
  -h, --help         Show this help; \`svc <command> --help\` shows one command's
  --version          Print the version

Exit codes: 0 ok, 1 request failed, 2 usage error.
`

const KEY = `The program API key is --api-key, else SVC_API_KEY, else the key \`svc init --save\` kept
for this server (keys.json beside the config file).`

/** One command's help: `svc <command> --help` or `svc help <command>`. */
export const COMMAND_HELP: Record<string, string> = {
  login: `Usage: svc login [--id-token TOKEN] [--base-url URL] [--json]

Signs in and saves a login token (for init and programs) and the base URL in the config file.
Without --id-token: prints a login URL and waits (polling every 2 s, up to 5 minutes) until the
id_token is entered on that page. With --id-token: signs in at once (CI, servers). An operator
issues id_tokens with POST /api/v1/admin/accounts/:id/id-token; each is good for one sign-in
within 10 minutes.
`,
  logout: `Usage: svc logout

Deletes the saved login token (the base URL stays). Succeeds when already logged out.
`,
  init: `Usage: svc init --name NAME --domain DOMAIN --commission-type TYPE --commission-rate RATE
                [--partner-signup off|approval|open] [--save | --no-save] [--json]

Creates a program for your account (needs \`svc login\`) and prints its program_id and API key.
The key is shown only this once.
  --commission-type   percent, fixed, recurring_percent or recurring_fixed
  --commission-rate   a percentage for percent types (at most 100); major currency units for fixed types
  --partner-signup    whether partners may apply on the program's join page: off (the default),
                      approval (you approve each) or open (approved at once)
  --save              keep the key for \`svc status\` and \`svc test\` against this server
                      (keys.json beside the config file, mode 0600)
  --no-save           do not keep it and do not ask
Missing fields, and whether to save the key, are asked for when stdin is a terminal; without
one, missing fields are a usage error and the key is kept only with --save.
If init fails with a 500, run \`svc programs\` before retrying: the program may exist.
`,
  programs: `Usage: svc programs [--json]

Lists your account's programs (needs \`svc login\`): id, name, domain, commission.
`,
  dashboard: `Usage: svc dashboard [--json]

Prints a one-time link that signs you in to your account's dashboard (needs \`svc login\`).
It works once, within 10 minutes; run the command again for a new one.
`,
  status: `Usage: svc status [--api-key KEY] [--json]

Shows the program's status as the server reports it: name, ids, live and test counts.
${KEY}
`,
  test: `Usage: svc test [click|lead|sale|chain] [--api-key KEY] [--json]

Sends a synthetic test event. chain (the default) runs click -> lead -> sale -> commission on
the program's test partner and link and prints each step; at most 10 chains per program per
hour. Test records, and every click on the test link, count as test data, never as live.
${KEY}
`,
  webhooks: `Usage: svc webhooks list
       svc webhooks add --url URL [--events sale.created,commission.created] [--description TEXT]
       svc webhooks test WEBHOOK_ID
       svc webhooks deliveries WEBHOOK_ID

The program's outbound webhook endpoints, with its API key (--api-key, SVC_API_KEY or the key
saved by init --save). add prints the endpoint's signing secret once; without --events it takes
every event type. test sends a webhook.test event now and prints its delivery; deliveries lists
the endpoint's latest 50 with their status, attempts and last answer.
`,
  review: `Usage: svc review list
       svc review approve COMMISSION_ID
       svc review reject COMMISSION_ID [--reason TEXT]

The program's commissions held for review (fraud_review hold): list prints the newest 200, each
with its partner, amount, sale and fraud flags, and each flag in words. approve puts a commission
back on the holding-period path (pending or due, counted from when its sale was recorded, so an
old one is due at once); reject writes its reversal, so
that it is reversed and never paid. With the program's API key (--api-key, SVC_API_KEY or the key
saved by init --save).
`,
  import: `Usage: svc import rewardful|tolt|firstpromoter|partnerstack --source-key KEY [--source-url URL]
       [--source-program-id ID] [--account-id ID] [--dry-run]

Imports the program's partners, links (tokens kept exactly), coupons, customers, sales,
commissions in their states and paid payouts from another tool, in the background on the server,
and prints its progress until it ends, then what it added and every row it skipped with its
reason. Run again, it adds nothing twice. --dry-run reads everything and writes nothing.
--source-key is the source's API key (PartnerStack: PUBLIC_KEY:SECRET_KEY); Tolt needs
--source-program-id, FirstPromoter --account-id. --source-url replaces the source's address.
${KEY}
`,
  verify: `Usage: svc verify STATEMENT [--previous EARLIER] [--key JWK_FILE_OR_URL]

Checks a partner's signed statement (the portal's statements/YYYY-MM.json, or the operator API's
answer): every entry's hash, the chain's head and the Ed25519 signature. With --previous, also
that the statement was signed with the same key and keeps every entry of the earlier one
unchanged. With --key (a saved copy of the server's key, or its URL
<base_url>/.well-known/svc-ledger-key), also that the server's key signed it: a statement
carries its own key, so without --key a statement anyone signed verifies, and a warning says
so. Exit 0 when it verifies, 1 naming the first entry that differs, a bad signature, another
signing key, or a statement that does not extend the earlier one.
`,
  stripe: `Usage: svc stripe replay FILE (--program-id ID | --connect) [--secret SECRET] [--timestamp UNIX]

Re-delivers a saved Stripe event (one event's JSON) byte for byte, signed with the program's
stripe_webhook_secret (--secret or SVC_STRIPE_WEBHOOK_SECRET), to
POST /api/v1/webhooks/stripe/:program_id, or with --connect to POST /api/v1/webhooks/stripe
signed with the server's STRIPE_CONNECT_WEBHOOK_SECRET. --timestamp signs with another time.
`,
  paddle: replayHelp('paddle', 'Paddle', 'Paddle-Signature (ts;h1)'),
  lemonsqueezy: replayHelp('lemonsqueezy', 'Lemon Squeezy', 'X-Signature'),
  polar: replayHelp('polar', 'Polar', 'the Standard Webhooks headers (webhook-id derived from the file)'),
}

function replayHelp(name: string, label: string, how: string): string {
  return `Usage: svc ${name} replay FILE --program-id ID [--secret SECRET] [--timestamp UNIX]

Re-delivers a saved ${label} event (one event's JSON) byte for byte, signed with the program's
${name}_webhook_secret (--secret or SVC_${name.toUpperCase()}_WEBHOOK_SECRET) in ${how}, to
POST /api/v1/webhooks/${name}/:program_id. --timestamp signs with another time.
`
}
