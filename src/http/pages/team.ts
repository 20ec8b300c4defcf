import { Elysia } from 'elysia'
import type { Member } from '../../db/schema.ts'
import { isEmail } from '../../domain/email.ts'
import { INVITED_ROLES, type InvitedRole } from '../../domain/role.ts'
import { addMember, changeRole, type MemberChange, removeMember } from '../../tracking/members.ts'
import type { Deps } from '../deps.ts'
import { when } from './format.ts'
import { pageKit, positiveId } from './guard.ts'
import { html, type Safe } from './html.ts'
import { csrfField, seeOther } from './layout.ts'

const notices: Record<string, string> = {
  invited: 'Invited: a sign-in link is on its way to them.',
  invited_log: "Invited: their sign-in link was written to the server's log (no SMTP_URL).",
  role: 'Role changed: it applies to their open sessions at once.',
  removed: 'Removed: their sessions ended.',
  email: 'Enter an email address.',
  role_invalid: 'Choose admin or viewer.',
  taken: 'This account already has a member with that email.',
  owner: 'The owner cannot be removed or given another role.',
  not_found: 'That member is not on this team any more.',
}

const roleWords: Record<string, string> = {
  owner: 'everything, and the team',
  admin: 'everything but the team; not sending payouts or regenerating the key',
  viewer: 'reads every page, changes nothing',
}

/** The Team page (the owner's): the members with their roles, a role change and removal for each invited one, and the invitation form. */
function teamPage(members: Member[], csrf: string, query: Record<string, string | undefined>, logged: boolean): Safe {
  const done = query.done ? notices[query.done === 'invited' && logged ? 'invited_log' : query.done] : undefined
  const error = query.error ? notices[query.error] : undefined
  const options = (current: string) => INVITED_ROLES.map((r) => html`<option value="${r}"${r === current ? ' selected' : ''}>${r}</option>`)
  const row = (m: Member) => {
    const actions =
      m.role === 'owner'
        ? html`<span class="muted">the account's own email</span>`
        : html`<div class="row"><form class="row" method="post" action="/dashboard/team/${m.id}/role">${csrfField(csrf)}<select name="role" aria-label="Role of ${m.email}">${options(m.role)}</select><button class="quiet">Change</button></form>
<form method="post" action="/dashboard/team/${m.id}/remove" data-confirm="Remove ${m.email}? Their sessions end at once.">${csrfField(csrf)}<button class="danger">Remove</button></form></div>`
    return html`<tr><td data-label="Email">${m.email}</td><td data-label="Role"><b>${m.role}</b><br><small class="muted">${roleWords[m.role]}</small></td><td data-label="Since" class="nowrap">${when(m.createdAt)}</td><td data-label="" class="nowrap">${actions}</td></tr>`
  }
  return html`<p class="muted"><a href="/dashboard">All programs</a></p><h1>Team</h1>
${done ? html`<p class="note" role="status">${done}</p>` : ''}${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<section class="panel"><h2>Members</h2><table class="stacked"><thead><tr><th>Email</th><th>Role</th><th>Since</th><th></th></tr></thead>
<tbody>${members.map(row)}</tbody></table></section>
<section class="panel" id="invite"><h2>Invite</h2><p class="muted">They sign in at /sign-in with their email; there is no password. An admin does everything but this page; a viewer reads everything and changes nothing.</p>
<form class="row" method="post" action="/dashboard/team">${csrfField(csrf)}<label>Email <input type="email" name="email" maxlength="254" required autocomplete="off"></label>
<label>Role <select name="role">${options('viewer')}</select></label><button>Invite</button></form></section>`
}

const roleOf = (value: string | undefined): InvitedRole | null =>
  (INVITED_ROLES as readonly string[]).includes(value ?? '') ? (value as InvitedRole) : null

/** The Team page and its forms (docs/decisions.md, Teams and the audit log): the owner's only (page-rows.ts). */
export function teamRoutes(deps: Deps) {
  const { stores, accountPage, accountPost } = pageKit(deps)
  const back = (kind: 'done' | 'error', notice: string) => seeOther(`/dashboard/team?${kind}=${notice}`)
  const answered = (change: MemberChange, notice: string) => (change.kind === 'done' ? back('done', notice) : back('error', change.kind))
  return new Elysia({ name: 'team' })
    .get(
      '/dashboard/team',
      accountPage(
        ({ signed, accountId, query }) =>
          teamPage(stores.members.listMembers(accountId), signed.csrf, query, deps.mail.delivery !== 'smtp'),
        'Team',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/team',
      accountPost(async ({ by, accountId, form }) => {
        const email = (form.email ?? '').trim()
        const role = roleOf(form.role)
        if (!isEmail(email)) return back('error', 'email')
        if (!role) return back('error', 'role_invalid')
        const added = await addMember(deps, deps.mail, by, accountId, email, role)
        return 'kind' in added ? back('error', 'taken') : back('done', 'invited')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/team/:member_id/role',
      accountPost(async ({ by, accountId, form, params }) => {
        const role = roleOf(form.role)
        if (!role) return back('error', 'role_invalid')
        return answered(await changeRole(deps, by, positiveId(params.member_id) ?? 0, role, accountId), 'role')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/team/:member_id/remove',
      accountPost(async ({ by, accountId, params }) =>
        answered(await removeMember(deps, by, positiveId(params.member_id) ?? 0, accountId), 'removed'),
      ),
      { detail: { hide: true } },
    )
}
