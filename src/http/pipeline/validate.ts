import type { Static, TObject, TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import { acceptedBody } from './body.ts'
import { HttpError } from './envelope.ts'

type Described = TSchema & { error?: string }

/**
 * A checker for a request body `t` schema whose properties carry docs/errors.md's message as `error`.
 * On failure it throws a 400 with the message of the first failing property in declaration
 * order, which is the order of docs/errors.md's tables; a body that is not an object (an array,
 * null, a number) gets the message an empty one would: `notObject` where no property is required
 * (lead: "click_id or customer_key is required"), else the first property's. JSON null in an
 * optional field counts as absent, unless the field's schema takes null. No coercion: "5" is not 5.
 */
export function bodyChecker<T extends TObject>(schema: T, notObject?: string): (body: unknown) => Static<T> {
  // Compiled with the first body it checks, not at import: some 30 checkers are built as the routes
  // load, and an idle server needs none of them (issue 36: a compile is code and memory at start).
  let compiled: ReturnType<typeof TypeCompiler.Compile<T>> | undefined
  const entries = Object.entries(schema.properties) as [string, Described][]
  const required = new Set(schema.required ?? [])
  // Fields whose schema takes null keep it (PATCH livemode: null means "both modes again").
  let nullable: Set<string> | undefined
  const fail = (property: Described): never => {
    throw new HttpError(400, property.error ?? (schema as Described).error ?? 'Invalid request body')
  }
  return (received) => {
    const body = acceptedBody(received)
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      if (notObject !== undefined) throw new HttpError(400, notObject)
      return fail(entries[0][1])
    }
    const input = body as Record<string, unknown>
    compiled ??= TypeCompiler.Compile(schema)
    nullable ??= new Set(entries.filter(([, property]) => Value.Check(property, null)).map(([key]) => key))
    for (const key in input) if (input[key] === null && !required.has(key) && !nullable.has(key)) delete input[key]
    if (compiled.Check(input)) return input as Static<T>
    for (const [key, property] of entries) {
      const value = input[key]
      if (value === undefined ? required.has(key) : !Value.Check(property, value)) fail(property)
    }
    return fail(schema as Described)
  }
}
