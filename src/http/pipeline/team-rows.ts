import { admin, adminBody, from, to } from './admin-answers.ts'
import { bool, data, int, list, obj, ref } from './openapi-schema.ts'
import type { Route } from './route-table.ts'

// The rows of the route table for an account's members and the audit log (docs/decisions.md,
// Teams and the audit log): route-table.ts spreads them in.

export const teamRows: Record<string, Route> = {
  'POST /api/v1/admin/accounts/:id/members': {
    id: 'addMember',
    status: 201,
    request: { email: 'accountant@shop.example', role: 'viewer' },
    body: data(ref('Member')),
    errors: { ...adminBody, 409: 'This account already has a member with that email' },
  },
  'GET /api/v1/admin/accounts/:id/members': {
    id: 'listMembers',
    body: obj({ data: { type: 'array', items: ref('Member') }, error: { type: 'null' } }),
    errors: admin,
  },
  'PATCH /api/v1/admin/members/:id': {
    id: 'changeMemberRole',
    request: { role: 'admin' },
    body: data(ref('Member')),
    errors: { ...adminBody, 409: 'The owner cannot be removed or given another role' },
  },
  'DELETE /api/v1/admin/members/:id': {
    id: 'removeMember',
    body: data(obj({ member_id: int, removed: bool })),
    errors: { ...admin, 409: 'The owner cannot be removed or given another role' },
  },
  'GET /api/v1/admin/programs/:id/audit': {
    id: 'listAudit',
    paged: true,
    body: list('AuditEntry'),
    errors: adminBody,
    query: [
      { name: 'actor', required: false, description: 'Part of who acted (a member email, operator, key:<id>:<scope>, system), any case' },
      { name: 'action', required: false, description: 'An action (payout.paid) or the actions of one object (payout.)' },
      from,
      to,
    ],
  },
}
