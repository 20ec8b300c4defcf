import { Elysia } from 'elysia'
import { ledgerKey } from '../../tracking/statements.ts'
import type { Deps } from '../deps.ts'
import { html, Safe } from './html.ts'
import { verifyScript } from './verify-script.gen.ts'

// The page carries everything it needs (docs/decisions.md, Safety, third round): its own CSP with
// inline script and style, and https: for an optional key URL, so that a copy saved from the
// browser works offline and asks no host but the one the partner names.
const POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src https:; img-src data:; form-action 'none'; base-uri 'none'"
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The header adds what a <meta> policy cannot say; the saved copy keeps the <meta> one.
  'content-security-policy': `${POLICY}; frame-ancestors 'none'`,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
}

const STYLE = `body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2430;background:#f6f7f9}
main{max-width:44rem;margin:0 auto;padding:1rem}h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input,textarea,button{font:inherit;max-width:100%}textarea{width:100%;min-height:4.5rem;font-family:ui-monospace,monospace;font-size:.85rem}
.panel{background:#fff;border:1px solid #d5dae1;border-radius:8px;padding:1rem}.muted{color:#5b6777;font-size:.9rem}
button{margin-top:1rem;padding:.5rem 1rem;border:0;border-radius:6px;background:#1a56db;color:#fff}
#verdict{margin-top:1rem;padding:.6rem .8rem;border-radius:6px}#verdict:empty{display:none}.ok{background:#e6f4ea;color:#0b5d1e}.bad{background:#fde8e8;color:#9b1c1c}`

/** The script inlined: `</` written `<\/` so that no text in it can close the script element. */
const inlineScript = new Safe(`<script>${verifyScript.replaceAll('</', '<\\/')}</script>`)

/** GET /verify: a partner checks a statement file in the browser; the page can be saved and used offline. */
export function verifyRoutes(deps: Deps) {
  return new Elysia({ name: 'verify' }).get(
    '/verify',
    () => {
      const key = JSON.stringify(ledgerKey(deps).jwk)
      const body = html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Verify a statement · svc</title><style>${new Safe(STYLE)}</style></head><body><main>
<h1>Verify a statement</h1>
<p>Your partner portal gives you a signed statement of your commissions and payouts each month. This page checks, here in your browser, that no entry was changed, removed or slipped in, and that the server's key signed it. Nothing is uploaded. Save this page (Ctrl+S or ⌘S) to check statements later without this server.</p>
<form id="form" class="panel">
<label for="statement">Statement file</label><input type="file" id="statement" accept=".json,application/json">
<label for="previous">An earlier statement (optional)</label><input type="file" id="previous" accept=".json,application/json">
<span class="muted">Given an earlier one, the check also proves the new one keeps every earlier entry unchanged.</span>
<label for="key">The server's signing key</label><textarea id="key" spellcheck="false">${key}</textarea>
<span class="muted">The key of ${deps.config.publicBaseUrl}, as this page was served. For another server, paste its key or its https://…/.well-known/svc-ledger-key address. Emptied, the signature is checked against the key inside the file only, which anyone can make.</span>
<div><button>Check</button></div>
<p id="verdict" role="status" aria-live="polite"></p></form></main>${inlineScript}</body></html>`
      return new Response(body.toString(), { headers: HEADERS })
    },
    { detail: { hide: true } },
  )
}
