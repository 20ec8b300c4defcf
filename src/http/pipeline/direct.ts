import { Elysia } from 'elysia'
import type { doc } from './doc.ts'

/** A JSON POST handler that needs the parsed body and the request only: nothing else of Elysia's context. */
export type DirectHandler = (context: { body: unknown; request: Request }) => Promise<object>

/**
 * A route the pipeline (app.ts) calls without Elysia's per-request work: the four tracking routes,
 * which take the load (issue 14: Elysia's context, hooks and response mapping cost a click about
 * 3 µs of its 38). Elysia still registers the same handler, so that the route table's check and the
 * OpenAPI document see the route as any other.
 */
export interface DirectRoute {
  path: string
  handle: DirectHandler
  plugin: Elysia
}

/** A POST route both Elysia and the pipeline know: `handle` is the one function either calls. */
export function directPost(name: string, path: string, handle: DirectHandler, detail: ReturnType<typeof doc>): DirectRoute {
  return { path, handle, plugin: new Elysia({ name }).post(path, handle, { detail }) as unknown as Elysia }
}
