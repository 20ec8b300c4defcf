import { Elysia } from 'elysia'
import type { Deps } from './deps'
import { answersOf, componentSchemas } from './openapi'

interface RouteLike {
  method: string
  path: string
  hooks?: { detail?: Record<string, unknown> }
}

/**
 * A request schema as OpenAPI reads it: TypeBox's JSON Schema without our `error` keyword (the
 * 400 message, see validate.ts), and Elysia's t.Integer/t.Numeric (a number or a numeric string)
 * shown as the integer or number the API documents.
 */
export function cleanSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanSchema)
  if (value === null || typeof value !== 'object') return value
  const input = value as Record<string, unknown>
  const anyOf = input.anyOf as Record<string, unknown>[] | undefined
  if (anyOf?.length === 2 && anyOf.some((s) => s.type === 'string' && (s.format === 'integer' || s.format === 'numeric'))) {
    const numeric = anyOf.find((s) => s.type === 'integer' || s.type === 'number')
    if (numeric) return cleanSchema({ ...numeric, ...Object.fromEntries(Object.entries(input).filter(([k]) => k !== 'anyOf')) })
  }
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(input)) {
    if (key === 'error') continue
    // Under `properties` the keys are field names (a field may be called `error`).
    out[key] = key === 'properties' && inner && typeof inner === 'object'
      ? Object.fromEntries(Object.entries(inner).map(([name, schema]) => [name, cleanSchema(schema)]))
      : cleanSchema(inner)
  }
  return out
}

const security: Record<string, unknown> = {
  programKey: { type: 'http', scheme: 'bearer', description: 'The program API key: `Authorization: Bearer <API_KEY>`. Issued by POST /api/v1/admin/programs (or svc init), shown once.' },
  loginToken: { type: 'http', scheme: 'bearer', description: 'The account login token handed out by the CLI login flow (auth/start, callback, poll).' },
  adminToken: { type: 'http', scheme: 'bearer', description: 'The operator token: the value of SVC_ADMIN_TOKEN. The operator API answers 404 when it is unset.' },
}

const tags = [
  { name: 'tracking', description: 'Clicks and leads from the browser or the server; sales and refunds from the server (docs/api.md).' },
  { name: 'cli', description: 'The routes the svc command-line tool uses (docs/cli-server.md).' },
  { name: 'webhooks', description: 'Payment-processor events (docs/stripe.md).' },
  { name: 'operator', description: "The self-hosted owner's API under /api/v1/admin, with SVC_ADMIN_TOKEN." },
  { name: 'tracker', description: 'The browser tracker script (docs/tracker.md).' },
]

/**
 * The OpenAPI 3.1 document, generated from the routes themselves: each route's `detail` carries
 * its summary, credential and the TypeBox schema its handler checks bodies with; openapi.ts adds
 * what each operation answers. Hand-written rather than @elysiajs/openapi (docs/decisions.md,
 * "API reference"): the answers are rendered by one onError and the pipeline, not by Elysia's
 * `response` schemas, so a plugin would still need this table.
 */
export function openApiDocument(routes: RouteLike[], deps: Deps): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const detail = route.hooks?.detail
    if (!detail || detail.hide || route.method === 'ALL') continue
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    const parameters: unknown[] = [...route.path.matchAll(/:(\w+)/g)]
      .map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }))
    const { hide: _hide, ...operation } = detail as Record<string, unknown>
    const answers = answersOf(route.method, route.path)
    if (answers) parameters.push(...answers.parameters)
    if (route.path.startsWith('/api/v1/webhooks/')) {
      parameters.push({ name: 'Stripe-Signature', in: 'header', required: true, description: 't=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', schema: { type: 'string' } })
    }
    paths[path] ??= {}
    paths[path][route.method.toLowerCase()] = {
      ...(answers ? { operationId: answers.operationId } : {}),
      ...(cleanSchema(operation) as Record<string, unknown>),
      security: operation.security ?? [],
      ...(parameters.length ? { parameters } : {}),
      responses: answers?.responses ?? operation.responses,
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc — referral tracking',
      version: '1.0.0',
      description: 'Self-hosted referral (affiliate) tracking. Answers use the platform envelope `{ data, error }` or, for readiness, rate limits, a retired key and a disabled link, the typed envelope `{ error: { code, message } }`. The contract in words: docs/api.md and docs/errors.md in the repository.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: deps.config.publicBaseUrl }],
    tags,
    components: { securitySchemes: security, schemas: cleanSchema(componentSchemas) },
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
