// GET /docs: the API reference, rendered on the server from the OpenAPI document into one HTML
// page with its style and script inline. Nothing is fetched from another host (self-hosted
// installs are often offline; the page's Content-Security-Policy forbids it), and it adds a few
// kilobytes to the binary where a bundled reference viewer adds megabytes (docs/decisions.md).

type Schema = Record<string, any>
type Doc = Record<string, any>

const esc = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
/** `code` spans in a description become <code>. */
const prose = (text: unknown) => esc(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>')
const anchor = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-')

function resolve(doc: Doc, schema: Schema): Schema {
  return schema.$ref ? resolve(doc, doc.components.schemas[schema.$ref.split('/').pop()]) : schema
}

/** A short type name: `integer`, `string (date-time)`, `Sale`, `array of Link`, `"a" | "b"`. */
function typeOf(doc: Doc, schema: Schema): string {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()
    return `<a href="#schema-${esc(name)}">${esc(name)}</a>`
  }
  if ('const' in schema) return `<code>${esc(JSON.stringify(schema.const))}</code>`
  if (schema.enum) return schema.enum.map((v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ')
  const options = schema.anyOf ?? schema.oneOf
  if (options) return options.map((s: Schema) => typeOf(doc, s)).join(' or ')
  if (schema.allOf) return schema.allOf.map((s: Schema) => typeOf(doc, s)).join(' and ')
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(doc, schema.items) : 'any'}`
  if (!schema.type) return 'any'
  return esc(schema.type) + (schema.format ? ` (${esc(schema.format)})` : '')
}

/** Rows of a field table: dotted names for nested objects, one level of $ref shown by name. */
function fieldRows(doc: Doc, schema: Schema, prefix = '', depth = 0): string {
  if (depth > 3 || schema.$ref) return ''
  if (schema.allOf) return schema.allOf.map((s: Schema) => fieldRows(doc, resolve(doc, s), prefix, depth)).join('')
  if (schema.type === 'array' && schema.items && !schema.items.$ref) return fieldRows(doc, schema.items, `${prefix}[].`, depth + 1)
  const props: Record<string, Schema> = schema.properties ?? {}
  const required = new Set<string>(schema.required ?? [])
  let rows = ''
  for (const [name, inner] of Object.entries(props)) {
    const limits = ['minimum', 'maximum', 'exclusiveMinimum', 'minLength', 'maxLength', 'pattern', 'default']
      .filter((k) => k in inner)
      .map((k) => `${k} ${esc(JSON.stringify(inner[k]))}`)
      .join(', ')
    rows +=
      `<tr><td><code>${esc(prefix + name)}</code></td><td>${typeOf(doc, inner)}</td><td>${required.has(name) ? 'yes' : ''}</td>` +
      `<td>${prose(inner.description ?? '')}${limits ? ` <small>${limits}</small>` : ''}</td></tr>`
    rows += fieldRows(doc, inner, `${prefix}${name}.`, depth + 1)
  }
  return rows
}

function fieldTable(doc: Doc, schema: Schema): string {
  const rows = fieldRows(doc, schema.$ref ? schema : schema)
  if (!rows) return `<p>Body: ${typeOf(doc, schema)}</p>`
  return `<table><thead><tr><th>field</th><th>type</th><th>required</th><th>notes</th></tr></thead><tbody>${rows}</tbody></table>`
}

/** An example value built from the schema (the schema's own example first). */
export function sample(doc: Doc, schema: Schema, depth = 0): unknown {
  if (depth > 6) return null
  if (schema.$ref) return sample(doc, resolve(doc, schema), depth + 1)
  if (schema.example !== undefined) return schema.example
  if (schema.examples?.length) return schema.examples[0]
  if ('const' in schema) return schema.const
  if (schema.enum) return schema.enum[0]
  if (schema.default !== undefined) return schema.default
  const options = schema.anyOf ?? schema.oneOf
  if (options) return sample(doc, options.find((s: Schema) => s.type !== 'null') ?? options[0], depth + 1)
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => sample(doc, s, depth + 1)))
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([name]) => (schema.required ?? []).includes(name) || depth === 0)
          .map(([name, inner]) => [name, sample(doc, inner as Schema, depth + 1)]),
      )
    case 'array':
      return schema.items ? [sample(doc, schema.items, depth + 1)] : []
    case 'integer':
      return schema.minimum ?? 1
    case 'number':
      return schema.minimum ?? 20
    case 'boolean':
      return true
    case 'null':
      return null
    case 'string':
      if (schema.format === 'date-time') return '2026-06-01T12:00:00.000Z'
      if (schema.format === 'email') return 'owner@shop.example'
      return 'string'
    default:
      return null
  }
}

const credentialNames: Record<string, string> = {
  programKey: 'program API key',
  loginToken: 'account login token',
  adminToken: 'admin token (SVC_ADMIN_TOKEN)',
}

function credential(op: Schema): string {
  const security: Record<string, unknown>[] = op.security ?? []
  if (security.length === 0) return 'none'
  const names = security.map((s) => (Object.keys(s).length ? credentialNames[Object.keys(s)[0]] : 'none'))
  return names.join(' or ')
}

function operationSection(doc: Doc, path: string, method: string, op: Schema): string {
  const id = op.operationId ?? anchor(`${method}-${path}`)
  const body = op.requestBody?.content?.['application/json']?.schema
  const requestExample = JSON.stringify(
    op.requestBody?.content?.['application/json']?.example ?? (body ? sample(doc, body) : null),
    null,
    2,
  )
  const params: Schema[] = op.parameters ?? []
  let html = `<section class="op" id="${esc(id)}"><h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>`
  html += `<p class="sum">${prose(op.summary ?? '')}</p>`
  if (op.description) html += `<p>${prose(op.description)}</p>`
  html += `<p><b>Credential:</b> ${esc(credential(op))}. <b>operationId:</b> <code>${esc(id)}</code></p>`
  if (params.length) {
    html += '<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>required</th><th>notes</th></tr></thead><tbody>'
    for (const p of params) {
      html += `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${typeOf(doc, p.schema ?? {})}</td><td>${p.required ? 'yes' : ''}</td><td>${prose(p.description ?? '')}</td></tr>`
    }
    html += '</tbody></table>'
  }
  if (body) {
    html += `<h4>Request body</h4>${fieldTable(doc, body)}<pre class="example">${esc(requestExample)}</pre>`
  }
  html += '<h4>Responses</h4>'
  for (const [status, response] of Object.entries(op.responses ?? {}) as [string, Schema][]) {
    const [media, content] = Object.entries(response.content ?? {})[0] ?? []
    const schema = (content as Schema | undefined)?.schema
    html += `<details${status.startsWith('2') ? ' open' : ''}><summary><span class="st s${esc(status[0])}">${esc(status)}</span> ${prose(response.description ?? '')}</summary>`
    if (response.headers)
      html += `<p>Headers: ${Object.keys(response.headers)
        .map((h) => `<code>${esc(h)}</code>`)
        .join(', ')}</p>`
    if (schema && media === 'application/json') {
      const example = (content as Schema).example ?? sample(doc, schema)
      html += `<p>Body: ${typeOf(doc, schema)}</p><pre>${esc(JSON.stringify(example, null, 2))}</pre>`
    } else if (media) html += `<p>Body: <code>${esc(media)}</code></p>`
    html += '</details>'
  }
  html += `<details class="try"><summary>Try it</summary><form data-method="${esc(method.toUpperCase())}" data-path="${esc(path)}">`
  for (const p of params.filter((p) => p.in === 'path' || p.in === 'query')) {
    html += `<label>${esc(p.name)} <input name="${esc(p.in)}:${esc(p.name)}"${p.required ? ' required' : ''}></label> `
  }
  if (body) html += `<textarea name="body" rows="6">${esc(requestExample)}</textarea>`
  html += '<button type="submit">Send</button><pre class="out" hidden></pre></form></details></section>'
  return html
}

const style = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;display:flex}
nav{width:17rem;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f6f9;padding:1rem;box-sizing:border-box;font-size:13px}
nav a{display:block;color:#1d2330;text-decoration:none;padding:.1rem 0}nav h2{font-size:12px;text-transform:uppercase;color:#667;margin:1rem 0 .3rem}
main{flex:1;max-width:62rem;padding:1rem 2rem;min-width:0}h2{border-bottom:1px solid #dde;margin-top:2.5rem}
.op{border-top:1px solid #eef;padding-top:.5rem;margin-top:1.5rem}code,pre{background:#f4f6f9;border-radius:3px;padding:.1rem .3rem}
pre{padding:.6rem;overflow:auto;font-size:13px}table{border-collapse:collapse;width:100%;font-size:13px}
td,th{border-bottom:1px solid #eee;text-align:left;padding:.25rem .4rem;vertical-align:top}
.m{font-weight:700;font-size:12px;padding:.1rem .4rem;border-radius:3px;color:#fff;background:#556}.get{background:#2a7}.post{background:#37c}.patch{background:#c83}
.st{font-weight:700}.s2{color:#2a7}.s4{color:#c60}.s5{color:#c33}summary{cursor:pointer}textarea{width:100%;font:13px monospace}
label{font-size:13px}#token{width:100%}.sum{font-weight:600}`

// "Try it": sends the request to this server only (same origin), with the token typed above.
const script = `document.addEventListener('submit',async e=>{const f=e.target;if(!f.dataset.method)return;e.preventDefault();
let path=f.dataset.path;const q=new URLSearchParams();for(const i of f.querySelectorAll('input')){const [where,name]=i.name.split(':');
if(where==='path')path=path.replace('{'+name+'}',encodeURIComponent(i.value));else if(i.value)q.set(name,i.value)}
const headers={};const t=document.getElementById('token').value.trim();if(t)headers.authorization='Bearer '+t;
const b=f.querySelector('textarea');if(b)headers['content-type']='application/json';const out=f.querySelector('.out');out.hidden=false;
try{const r=await fetch(path+(q.size?'?'+q:''),{method:f.dataset.method,headers,body:b?b.value:undefined});
const text=await r.text();let shown=text;try{shown=JSON.stringify(JSON.parse(text),null,2)}catch{}
out.textContent=r.status+' '+r.statusText+'\\n'+shown}catch(err){out.textContent=String(err)}})`

/** The whole reference page for `doc`. */
export function renderDocsPage(doc: Doc): string {
  const groups = new Map<string, string[]>()
  const toc = new Map<string, string[]>()
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'other'
      if (!groups.has(tag)) {
        groups.set(tag, [])
        toc.set(tag, [])
      }
      groups.get(tag)!.push(operationSection(doc, path, method, op))
      toc
        .get(tag)!
        .push(
          `<a href="#${esc(op.operationId)}" title="${esc(`${method.toUpperCase()} ${path}`)}"><b>${esc(method.toUpperCase())}</b> ${esc(op.summary ?? path)}</a>`,
        )
    }
  }
  const tagInfo = new Map<string, string>((doc.tags ?? []).map((t: Schema) => [t.name, t.description]))
  // Groups in the document's tag order (tracking first), then any other.
  const order = [...tagInfo.keys()]
  const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length)
  const sorted = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => rank(a) - rank(b))
  const schemes = Object.entries(doc.components?.securitySchemes ?? {}) as [string, Schema][]
  const schemas = Object.entries(doc.components?.schemas ?? {}) as [string, Schema][]
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>svc API reference</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><style>${style}</style></head><body>
<nav aria-label="Contents"><a href="#top"><b>svc API reference</b></a><a href="#auth">Authentication</a><a href="#errors">Errors</a>
<a href="#api_key_rotation_required">Key rotation</a>${sorted(toc)
    .map(([tag, links]) => `<h2>${esc(tag)}</h2>${links.join('')}`)
    .join('')}
<h2>schemas</h2>${schemas.map(([name]) => `<a href="#schema-${esc(name)}">${esc(name)}</a>`).join('')}</nav>
<main id="top"><h1>${esc(doc.info.title)}</h1><p>${prose(doc.info.description)}</p>
<p>Base URL: <code>${esc(doc.servers?.[0]?.url ?? '')}</code>. Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${esc(doc.openapi)}). License: ${esc(doc.info.license?.name ?? '')}.</p>
<section id="auth"><h2>Authentication</h2><p>Every credential is sent as <code>Authorization: Bearer &lt;token&gt;</code>.</p><ul>
${schemes.map(([name, s]) => `<li><b>${esc(credentialNames[name] ?? name)}</b> (<code>${esc(name)}</code>): ${prose(s.description ?? '')}</li>`).join('')}</ul>
<label>Token used by "Try it" (kept in this page only): <input id="token" autocomplete="off" placeholder="API key, login token or admin token"></label></section>
<section id="errors"><h2>Errors</h2><p>Most answers use the platform envelope: <code>{ "data": …, "error": null }</code> on success and
<code>{ "data": null, "error": { "status", "name", "message", "details" } }</code> on failure; sale and refund add a stable
<code>error.code</code>. Readiness, rate limits (429), a retired key (401) and a disabled link (410) use the typed envelope
<code>{ "error": { "code", "message", … } }</code> with no <code>data</code> key. Rate-limited routes carry
<code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>; a 429 adds <code>Retry-After</code>.</p></section>
<section id="api_key_rotation_required"><h2>api_key_rotation_required</h2><p>An API key marked for mandatory rotation
keeps working until its deadline; until then every response carries <code>Deprecation</code>, <code>Sunset</code> and
<code>Link</code> headers and a top-level <code>warnings</code> entry. After the deadline the key answers 401 with code
<code>api_key_rotation_required</code>. Regenerate the key (operator API: <code>POST /api/v1/admin/programs/{id}/api-key</code>)
and deploy the new one.</p></section>
${sorted(groups)
  .map(
    ([tag, sections]) =>
      `<section id="tag-${esc(tag)}"><h2>${esc(tag)}</h2><p>${prose(tagInfo.get(tag) ?? '')}</p>${sections.join('')}</section>`,
  )
  .join('\n')}
<section id="schemas"><h2>Schemas</h2>${schemas.map(([name, s]) => `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${s.description ? `<p>${prose(s.description)}</p>` : ''}${fieldTable(doc, s)}</section>`).join('')}</section>
</main><script>${script}</script></body></html>`
}

/** Headers of /docs: nothing may be loaded or sent anywhere but this server. */
export const docsPageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
}
