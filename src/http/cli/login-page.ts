import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * The page behind auth/start's login_url. The CLI signs in with an id_token that the operator
 * issues for the account: this page posts it with the session's state to the callback, after
 * which the waiting `svc login` collects its token. The web dashboard is another door (one-time
 * links), named here so that nobody takes this page for the only one.
 */
function page(baseUrl: string, state: string | null): string {
  const base = escapeHtml(baseUrl)
  const shownState = state ? escapeHtml(state) : '&lt;state&gt;'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc login</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{background:#f5f5f5;padding:.1rem .3rem;border-radius:3px}pre{padding:.6rem;overflow:auto}
textarea{width:100%;min-height:5rem;font:13px monospace}#out{font-weight:600}</style></head><body>
<h1>Complete your svc login</h1>
${state ? '' : '<p><strong>This link has no login session.</strong> Run <code>svc login</code> and open the URL it prints.</p>'}
<p>The CLI signs in with a one-time <em>id_token</em> for your account (valid 10 minutes), which the
server's operator issues:</p>
<pre>curl -X POST -H "Authorization: Bearer $SVC_ADMIN_TOKEN" \\
  ${base}/api/v1/admin/accounts/&lt;account_id&gt;/id-token</pre>
<p>Paste <code>data.id_token</code> here; <code>svc login</code>, still waiting in your terminal, then finishes by
itself. The session expires 5 minutes after <code>svc login</code> started.</p>
<form id="f"><input type="hidden" name="state" value="${state ? escapeHtml(state) : ''}">
<textarea name="id_token" required placeholder="id_token"></textarea><p><button ${state ? '' : 'disabled'}>Sign in</button>
<span id="out" role="status"></span></p></form>
<p>Without a browser, the same call is:</p>
<pre>curl -X POST -H "Content-Type: application/json" ${base}/api/v1/cli/auth/callback \\
  -d '{"state":"${shownState}","id_token":"&lt;id_token&gt;"}'</pre>
<p>On a headless machine, <code>svc login --id-token &lt;id_token&gt;</code> does all of this in one step.</p>
<p>Looking for the web dashboard? It is at <a href="${base}/dashboard">${base}/dashboard</a>; once
<code>svc login</code> has finished, <code>svc dashboard</code> prints a one-time sign-in link for it.</p>
<script>document.getElementById('f').addEventListener('submit',async function(e){e.preventDefault();
var out=document.getElementById('out'),f=e.target;out.textContent='Signing in…';
try{var r=await fetch('/api/v1/cli/auth/callback',{method:'POST',headers:{'content-type':'application/json'},
body:JSON.stringify({state:f.state.value,id_token:f.id_token.value.trim()})});var b=await r.json();
out.textContent=r.ok?'Signed in. Return to your terminal.':(b.error&&b.error.message||('HTTP '+r.status))}
catch(x){out.textContent='Could not reach the server.'}})</script></body></html>`
}

/** GET /cli/login: the HTML page a login_url opens. */
export function cliLoginPage(deps: Deps) {
  return new Elysia({ name: 'cli-login-page' }).get(
    '/cli/login',
    ({ query }) => {
      // A state is a base64url token; anything else is not one of ours and is not echoed.
      const state = typeof query.state === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(query.state) ? query.state : null
      return new Response(page(deps.config.publicBaseUrl, state), {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy':
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
          'referrer-policy': 'no-referrer',
        },
      })
    },
    { detail: { hide: true } },
  )
}
