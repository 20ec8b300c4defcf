import { Elysia } from 'elysia'
import type { Program } from '../../db/schema.ts'
import { minorDigitsOf } from '../../domain/commission.ts'
import { bookBonus } from '../../tracking/bonus.ts'
import { createGroup, deleteGroup, type GroupOutcome, updateGroup } from '../../tracking/groups.ts'
import type { Deps } from '../deps.ts'
import { groupsPage, readGroupForm } from './group-pages.ts'
import { notFound, pageKit, positiveId } from './guard.ts'
import { html } from './html.ts'
import { seeOther } from './layout.ts'
import * as owner from './owner-pages.ts'

/** "12.34" in a currency with `digits` minor digits as an integer of minor units; null when it is no such amount. */
export function minorUnits(text: string, digits: number): number | null {
  const [whole = '', fraction = '', ...rest] = text.trim().split('.')
  if (rest.length > 0 || !/^\d{1,15}$/.test(whole) || fraction.length > digits || !/^\d*$/.test(fraction)) return null
  const cents = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0')
  return Number.isSafeInteger(cents) && cents > 0 ? cents : null
}

/** The dashboard's Groups page and its forms, and the partner page's bonus form (docs/decisions.md, Groups). */
export function groupRoutes(deps: Deps) {
  const { stores, ownerPage, ownerPost, back } = pageKit(deps)
  const outcome = (program: Program, result: GroupOutcome, done: string) =>
    result.kind === 'ok'
      ? seeOther(`/dashboard/programs/${program.id}/groups?done=${done}#group-${result.group.id}`)
      : back(program, '/groups', result.kind === 'rate' ? 'group_rate' : 'group_missing', 'error')

  return new Elysia({ name: 'groups' })
    .get(
      '/dashboard/programs/:id/groups',
      ownerPage(
        ({ program, signed, query }) =>
          html`${owner.notice(query)}${groupsPage(program, {
            groups: stores.groups.list(program.id),
            csrf: signed.csrf,
            baseUrl: deps.config.publicBaseUrl,
          })}`,
        'Groups',
      ),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/groups',
      ownerPost(async ({ by, program, form }) => {
        const read = readGroupForm(form)
        if (!read.ok) return back(program, '/groups', read.refused, 'error')
        return outcome(program, await createGroup(deps, by, program.id, read.value), 'group_created')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/groups/:group_id',
      ownerPost(async ({ by, program, form, params, signed }) => {
        const groupId = positiveId(params.group_id)
        if (groupId === null) return notFound(signed)
        const read = readGroupForm(form)
        if (!read.ok) return back(program, '/groups', read.refused, 'error')
        return outcome(program, await updateGroup(deps, by, groupId, read.value, program.id), 'group_saved')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/groups/:group_id/delete',
      ownerPost(async ({ by, program, params, signed }) => {
        const groupId = positiveId(params.group_id)
        if (groupId === null) return notFound(signed)
        const removed = await deleteGroup(deps, by, groupId, program.id)
        if (removed === null) return notFound(signed)
        if (removed === 'has_partners') return back(program, '/groups', 'group_has_partners', 'error')
        return back(program, '/groups', 'group_deleted')
      }),
      { detail: { hide: true } },
    )
    .post(
      '/dashboard/programs/:id/partners/:partner_id/bonuses',
      ownerPost(async ({ by, program, form, params, signed }) => {
        const partnerId = positiveId(params.partner_id)
        if (partnerId === null) return notFound(signed)
        const to = (kind: 'done' | 'error', notice: string) =>
          seeOther(`/dashboard/programs/${program.id}/partners/${partnerId}?${kind}=${notice}#bonus`)
        const currency = (form.currency ?? '').trim().toUpperCase()
        const amountCents = minorUnits(form.amount ?? '', minorDigitsOf(currency))
        const description = (form.description ?? '').trim()
        if (amountCents === null) return to('error', 'bonus_amount')
        if (!description || description.length > 500) return to('error', 'bonus_description')
        const booked = await bookBonus(deps, by, program.id, partnerId, { amountCents, currency, description })
        if (booked.kind === 'not_found') return notFound(signed)
        if (booked.kind !== 'booked') return to('error', booked.kind === 'currency' ? 'bonus_currency' : 'bonus_amount')
        return to('done', 'bonus_booked')
      }),
      { detail: { hide: true } },
    )
}
