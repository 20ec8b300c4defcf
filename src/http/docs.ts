import { Elysia } from 'elysia'
import type { Deps } from './deps'

interface RouteLike {
  method: string
  path: string
  hooks?: { detail?: Record<string, unknown> }
}

/**
 * The OpenAPI 3.1 document, generated from the routes themselves: each route's `detail`
 * carries its summary and the same TypeBox schemas its handler checks bodies with.
 */
export function openApiDocument(routes: RouteLike[], deps: Deps): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const detail = route.hooks?.detail
    if (!detail || detail.hide || route.method === 'ALL') continue
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    const parameters = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
    const { hide: _hide, ...operation } = detail
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = { ...(parameters.length ? { parameters } : {}), ...operation }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc — referral tracking',
      version: '1.0.0',
      description: 'Self-hosted referral (affiliate) tracking. Platform envelope: { data, error }; typed envelope: { error: { code, message } }. See the README for the operator API and configuration.',
    },
    servers: [{ url: deps.config.publicBaseUrl }],
    components: {
      securitySchemes: {
        programKey: { type: 'http', scheme: 'bearer', description: 'Program API key' },
        loginToken: { type: 'http', scheme: 'bearer', description: 'Account login token from the CLI login flow' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'SVC_ADMIN_TOKEN' },
      },
    },
    paths,
  }
}

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc API reference</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem;border-bottom:1px solid #ddd}code,pre{background:#f5f5f5;padding:.1rem .3rem;border-radius:3px}
pre{padding:.6rem;overflow:auto}.m{font-weight:700;text-transform:uppercase;margin-right:.5rem}</style></head>
<body><h1>svc API reference</h1><p>Generated from <a href="/openapi.json">/openapi.json</a>.</p>
<section id="api_key_rotation_required"><h2>api_key_rotation_required</h2><p>An API key marked for mandatory rotation
keeps working until its deadline; until then every response carries <code>Deprecation</code>, <code>Sunset</code> and
<code>Link</code> headers and a top-level <code>warnings</code> entry. After the deadline the key answers 401 with code
<code>api_key_rotation_required</code>. Regenerate the key (operator API: <code>POST /api/v1/admin/programs/:id/api-key</code>)
and deploy the new one.</p></section><div id="ops"></div>
<script>fetch('/openapi.json').then(r=>r.json()).then(doc=>{const root=document.getElementById('ops');
for(const [path,ops] of Object.entries(doc.paths))for(const [m,op] of Object.entries(ops)){const s=document.createElement('section');
const h=document.createElement('h2');h.innerHTML='<span class="m"></span><code></code>';h.children[0].textContent=m;h.children[1].textContent=path;
const p=document.createElement('p');p.textContent=(op.summary||'')+(op.description?' — '+op.description:'');s.append(h,p);
const b=op.requestBody&&op.requestBody.content;if(b){const pre=document.createElement('pre');pre.textContent=JSON.stringify(Object.values(b)[0].schema,null,2);s.append(pre)}
root.append(s)}})</script></body></html>`

/** GET /openapi.json and GET /docs (the reference page, also {docs_url}). */
export function docsRoutes(deps: Deps, routes: () => RouteLike[]) {
  let document: Record<string, unknown> | null = null
  return new Elysia({ name: 'docs' })
    .get('/openapi.json', () => (document ??= openApiDocument(routes(), deps)), { detail: { hide: true } })
    .get('/docs', () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }), { detail: { hide: true } })
}

/**
 * A route's OpenAPI `detail`: its summary, tag, credential and the very TypeBox schema its
 * handler checks the body with, so the document cannot drift from the code.
 */
export function doc(summary: string, tag: string, options: { body?: unknown; answer?: unknown; security?: 'programKey' | 'loginToken' | 'adminToken'; optionalSecurity?: boolean; description?: string } = {}) {
  return {
    summary,
    tags: [tag],
    ...(options.description ? { description: options.description } : {}),
    // An optional credential is OpenAPI's alternative of the scheme or nothing ({}).
    ...(options.security ? { security: options.optionalSecurity ? [{ [options.security]: [] }, {}] : [{ [options.security]: [] }] } : {}),
    ...(options.body ? { requestBody: { required: true, content: { 'application/json': { schema: options.body as never } } } } : {}),
    ...(options.answer ? { responses: { 200: { description: 'Success', content: { 'application/json': { schema: options.answer as never } } } } } : {}),
  }
}
