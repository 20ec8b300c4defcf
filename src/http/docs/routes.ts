import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { docsPageHeaders, renderDocsPage } from './page.ts'
import { answersOf, componentSchemas } from './openapi.ts'

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
    out[key] =
      key === 'properties' && inner && typeof inner === 'object'
        ? Object.fromEntries(Object.entries(inner).map(([name, schema]) => [name, cleanSchema(schema)]))
        : cleanSchema(inner)
  }
  return out
}

const security: Record<string, unknown> = {
  programKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'The program API key: `Authorization: Bearer <API_KEY>`. Issued by POST /api/v1/admin/programs (or svc init), shown once.',
  },
  loginToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The account login token handed out by the CLI login flow (auth/start, callback, poll).',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token: the value of SVC_ADMIN_TOKEN. The operator API answers 404 when it is unset.',
  },
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
 * its summary, credential and the TypeBox schema its handler checks bodies with; its row in the
 * route table (route-table.ts, read by openapi.ts) adds what each operation answers. Hand-written rather than @elysiajs/openapi (docs/decisions.md,
 * "API reference"): the answers are rendered by one onError and the pipeline, not by Elysia's
 * `response` schemas, so a plugin would still need this table.
 */
export function openApiDocument(routes: RouteLike[], deps: Deps): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const detail = route.hooks?.detail
    if (!detail || detail.hide || route.method === 'ALL') continue
    const path = route.path.replace(/:(\w+)/g, '{$1}')
    const parameters: unknown[] = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    }))
    const { hide: _hide, ...operation } = detail as Record<string, unknown>
    const answers = answersOf(route.method, route.path)
    const requestBody = operation.requestBody as { content: Record<string, Record<string, unknown>> } | undefined
    if (requestBody && answers?.request !== undefined) requestBody.content['application/json'].example = answers.request
    if (answers) parameters.push(...answers.parameters)
    if (answers?.signed) {
      parameters.push({
        name: 'Stripe-Signature',
        in: 'header',
        required: true,
        description: 't=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">',
        schema: { type: 'string' },
      })
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
      description:
        'Self-hosted referral (affiliate) tracking. Answers use the platform envelope `{ data, error }` or, for readiness, rate limits, a retired key and a disabled link, the typed envelope `{ error: { code, message } }`. The contract in words: docs/api.md and docs/errors.md in the repository.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: deps.config.publicBaseUrl }],
    tags,
    components: { securitySchemes: security, schemas: cleanSchema(componentSchemas) },
    paths,
  }
}

/** GET /openapi.json and GET /docs (the reference page, also {docs_url}); both built once, on first request. */
export function docsRoutes(deps: Deps, routes: () => RouteLike[]) {
  let document: Record<string, unknown> | null = null
  let page: string | null = null
  const built = () => (document ??= openApiDocument(routes(), deps))
  return new Elysia({ name: 'docs' })
    .get('/openapi.json', built, { detail: { hide: true } })
    .get('/docs', () => new Response((page ??= renderDocsPage(built())), { headers: docsPageHeaders }), { detail: { hide: true } })
}
