// A scripted HTTP stub for the server client: each request takes the next planned answer
// and is recorded, so retry behaviour is observable without the real server.
export type Planned = { status: number; body?: unknown; headers?: Record<string, string> }
export type Seen = { path: string; body: any; authorization: string | null; at: number }

/** Starts Bun.serve on port 0 answering `plan` in order (the last answer repeats). */
export function startStub(plan: Planned[]) {
  const seen: Seen[] = []
  const server = Bun.serve({
    port: 0,
    async fetch(req) {
      seen.push({
        path: new URL(req.url).pathname,
        body: await req.json().catch(() => null),
        authorization: req.headers.get('authorization'),
        at: performance.now(),
      })
      const next = plan[Math.min(seen.length - 1, plan.length - 1)]!
      return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
        status: next.status,
        headers: { 'content-type': 'application/json', ...next.headers },
      })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, seen, stop: () => server.stop(true) }
}

/** The platform error envelope of docs/errors.md. */
export const platformError = (status: number, name: string, message: string, extra: Record<string, unknown> = {}) => ({
  data: null,
  error: { status, name, message, details: {}, ...extra },
})
