// What every operator route may answer beside its own, and the date filters of its lists: shared
// by the operator API's rows of the route table (operator-rows.ts, group-rows.ts, team-rows.ts).

export const admin = {
  401: 'Wrong or missing admin token',
  404: 'Not found (the whole operator API answers 404 when SVC_ADMIN_TOKEN is unset)',
  500: 'Internal error',
}
export const adminBody = { 400: 'A field is invalid: the message names it', ...admin }
export const from = { name: 'from', required: false, description: 'Created on or after this ISO 8601 date (UTC)' }
export const to = { name: 'to', required: false, description: 'Created on or before this ISO 8601 date (UTC), inclusive' }
