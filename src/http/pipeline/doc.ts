// Every surface describes its routes for the OpenAPI document (src/http/docs) with this one helper.

/**
 * A route's OpenAPI `detail`: its summary, tag, credential and the very TypeBox schema its
 * handler checks the body with, so the document cannot drift from the code.
 */
export function doc(
  summary: string,
  tag: string,
  options: {
    body?: unknown
    answer?: unknown
    security?: 'programKey' | 'loginToken' | 'adminToken'
    optionalSecurity?: boolean
    description?: string
  } = {},
) {
  return {
    summary,
    tags: [tag],
    ...(options.description ? { description: options.description } : {}),
    // An optional credential is OpenAPI's alternative of the scheme or nothing ({}).
    ...(options.security ? { security: options.optionalSecurity ? [{ [options.security]: [] }, {}] : [{ [options.security]: [] }] } : {}),
    ...(options.body ? { requestBody: { required: true, content: { 'application/json': { schema: options.body as never } } } } : {}),
    ...(options.answer
      ? { responses: { 200: { description: 'Success', content: { 'application/json': { schema: options.answer as never } } } } }
      : {}),
  }
}
