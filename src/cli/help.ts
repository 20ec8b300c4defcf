/** Usage text, printed by --help (stdout, exit 0) and pointed to by usage errors. */
export const USAGE = `svc: command-line tool for the referral tracking service

Usage: svc <command> [flags]

Commands:
  login [--id-token TOKEN]   Sign in (opens a login URL; --id-token for headless use)
  logout                     Forget the saved login token
  init                       Create a program (needs login)
      --name NAME  --domain DOMAIN
      --commission-type percent|fixed|recurring_percent|recurring_fixed
      --commission-rate NUMBER
  programs                   List your programs (needs login)
  dashboard                  Print a one-time sign-in link to the dashboard (needs login)
  status                     Show the program's status (needs a program API key)
  test [click|lead|sale|chain]
                             Send a synthetic test event (default: chain; needs a program API key)
  stripe replay FILE         Sign a saved Stripe event and POST it to the webhook route
      --program-id ID | --connect
      --secret SECRET        (or SVC_STRIPE_WEBHOOK_SECRET)
      --timestamp UNIX       signature time (default: now)

Global flags:
  --base-url URL     Server address (default: SVC_BASE_URL, then the URL saved by login,
                     then http://localhost:3000)
  --api-key KEY      Program API key for status and test (or SVC_API_KEY)
  --json             Print the server's raw JSON answer on stdout
  -h, --help         Show this help

Exit codes: 0 ok, 1 request failed, 2 usage error.
`
