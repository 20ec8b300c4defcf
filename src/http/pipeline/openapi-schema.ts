/** JSON Schema shorthands of the OpenAPI document, shared by the route table's answers and openapi.ts's components. */
export type Schema = Record<string, unknown>

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
export const obj = (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
})
export const str: Schema = { type: 'string' }
export const time: Schema = { type: 'string', format: 'date-time' }
export const int: Schema = { type: 'integer' }
export const bool: Schema = { type: 'boolean' }
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] })
export const enumOf = (...values: string[]): Schema => ({ type: 'string', enum: values })

/** The platform success envelope around `schema`, with the rotation warnings. */
export const data = (schema: Schema): Schema =>
  obj({ data: schema, error: { type: 'null' }, warnings: { type: 'array', items: ref('Warning') } }, ['warnings'])
/** A page of a read route. */
export const list = (item: string): Schema =>
  obj({
    data: { type: 'array', items: ref(item) },
    error: { type: 'null' },
    next_cursor: { ...nullable(str), description: 'The cursor of the next page; null on the last page' },
  })
