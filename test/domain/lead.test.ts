import { describe, expect, test } from 'bun:test'
import { decideLead, type LeadCustomer, type LeadFacts } from '../../src/domain/lead.ts'

const click = { clickId: 'clk_a', partnerId: 3, linkId: 4, createdAt: 0, testMode: false }
const c = (status: LeadCustomer['status'], convertedAt: number | null = null): LeadCustomer => ({ id: 9, status, convertedAt })
const facts = (over: Partial<LeadFacts>): LeadFacts => ({
  provisional: false,
  byKey: null,
  byClick: null,
  click: null,
  foreign: false,
  ...over,
})

describe('decideLead', () => {
  const rows: [string, LeadFacts, unknown][] = [
    ['a server lead on a known click creates a lead', facts({ click }), { kind: 'create', status: 'lead' }],
    [
      'a browser lead under server_required creates a provisional lead',
      facts({ provisional: true, click }),
      { kind: 'create', status: 'provisional' },
    ],
    [
      'a repeated browser lead leaves the provisional lead unchanged',
      facts({ provisional: true, click, byClick: c('provisional') }),
      { kind: 'unchanged', status: 'provisional' },
    ],
    [
      'a server lead settles a provisional lead',
      facts({ click, byClick: c('provisional') }),
      { kind: 'settle', customerId: 9, status: 'lead' },
    ],
    [
      'settling a provisional lead that already bought makes it converted',
      facts({ byClick: c('provisional', 5) }),
      { kind: 'settle', status: 'converted' },
    ],
    [
      'a lead for a lead is refused with its status',
      facts({ byKey: c('lead') }),
      { kind: 'reject', reason: 'status_locked', status: 'lead' },
    ],
    [
      'a lead for a converted customer is refused with its status',
      facts({ byClick: c('converted') }),
      { kind: 'reject', reason: 'status_locked', status: 'converted' },
    ],
    [
      'a browser lead for a settled customer is refused with its status',
      facts({ provisional: true, byClick: c('lead') }),
      { kind: 'reject', reason: 'status_locked', status: 'lead' },
    ],
    ['nothing known: not found', facts({}), { kind: 'reject', reason: 'not_found' }],
    ['known only in another program: other program', facts({ foreign: true }), { kind: 'reject', reason: 'other_program' }],
    [
      'the customer_key wins over the click',
      facts({ byKey: c('lead'), byClick: c('provisional') }),
      { kind: 'reject', reason: 'status_locked' },
    ],
  ]
  for (const [why, input, expected] of rows) test(why, () => expect(decideLead(input)).toMatchObject(expected as object))
})
