import { createHash } from 'node:crypto'
import { entryText, GENESIS, type StatementEntry } from '../domain/statement.ts'
import { iso } from '../domain/time.ts'
import type { Connection } from './open.ts'

type Kind = StatementEntry['kind']
type Head = { seq: number; hash: string }

// Where each kind of entry keeps its link: the entry's own row (docs/ledger.md), so that chaining
// a commission writes no page the sale path does not write already (bench/README.md, issue 28).
const linkColumns: Record<Kind, { table: 'commissions' | 'payouts'; seq: string; hash: string }> = {
  commission: { table: 'commissions', seq: 'chain_seq', hash: 'chain_hash' },
  reversal: { table: 'commissions', seq: 'chain_seq', hash: 'chain_hash' },
  bonus: { table: 'commissions', seq: 'chain_seq', hash: 'chain_hash' },
  payout: { table: 'payouts', seq: 'chain_seq', hash: 'chain_hash' },
  payout_canceled: { table: 'payouts', seq: 'cancel_seq', hash: 'cancel_hash' },
}

/**
 * The partners' hash chains (docs/ledger.md). Each link (seq, hash) is stored on the entry's own
 * row: a commission or reversal, a payout, a payout's cancellation. append() runs in the writer
 * unit that books the entry, so that an entry and its link commit together.
 */
export class ChainStore {
  private readonly s
  /**
   * Each partner's head as last appended, so that the sale path reads none. A partner appended to
   * in the batch now running is dropped when anything is rolled back (Writer.onRollback,
   * SaleStore.attempt): a head that was not committed is never used.
   */
  private readonly heads = new Map<number, Head>()
  private readonly touched = new Set<number>()

  constructor(private readonly connection: Connection) {
    const { client, writer } = connection
    writer.onRollback((what) => (what === 'batch' ? this.heads.clear() : this.forget()))
    writer.beforeCommit(() => this.touched.clear())
    const link = (kind: Kind) => {
      const c = linkColumns[kind]
      return client.prepare(`UPDATE ${c.table} SET ${c.seq} = ?, ${c.hash} = ? WHERE id = ?`)
    }
    this.s = {
      link: {
        commission: link('commission'),
        reversal: link('reversal'),
        bonus: link('bonus'),
        payout: link('payout'),
        payout_canceled: link('payout_canceled'),
      },
      // A commission's seq grows with its id (append and backfill both link in id order), so the
      // partner's last commission holds the commissions' highest; payouts are few: all are read.
      lastCommission: client.prepare(
        'SELECT chain_seq AS seq, chain_hash AS hash FROM commissions WHERE partner_id = ? AND chain_seq IS NOT NULL ORDER BY id DESC LIMIT 1',
      ),
      lastPayout: client.prepare(`SELECT seq, hash FROM (
          SELECT chain_seq AS seq, chain_hash AS hash FROM payouts WHERE partner_id = ?1 AND chain_seq IS NOT NULL
          UNION ALL SELECT cancel_seq, cancel_hash FROM payouts WHERE partner_id = ?1 AND cancel_seq IS NOT NULL
        ) ORDER BY seq DESC LIMIT 1`),
      // Every link of a partner booked before a time, with the entry's fields as stored now.
      entries: client.prepare(`SELECT * FROM (
          SELECT chain_seq AS seq, kind, id AS entry_id, chain_hash AS hash, amount_cents, currency, created_at AS at, test_mode
            FROM commissions WHERE partner_id = ?1 AND chain_seq IS NOT NULL AND created_at < ?2
          UNION ALL
          SELECT chain_seq, 'payout', id, chain_hash, -amount_cents, currency, created_at, 0
            FROM payouts WHERE partner_id = ?1 AND chain_seq IS NOT NULL AND created_at < ?2
          UNION ALL
          SELECT cancel_seq, 'payout_canceled', id, cancel_hash, amount_cents, currency, canceled_at, 0
            FROM payouts WHERE partner_id = ?1 AND cancel_seq IS NOT NULL AND canceled_at < ?2
        ) ORDER BY seq`),
    }
  }

  /** Links an entry booked at `at` (its row written already) to the end of its partner's chain. */
  append(
    programId: number,
    partnerId: number,
    kind: Kind,
    entryId: number,
    amountCents: number,
    currency: string,
    at: number,
    testMode: boolean,
  ): void {
    const head = this.heads.get(partnerId) ?? this.storedHead(partnerId)
    const seq = (head?.seq ?? 0) + 1
    const text = entryText(
      { program_id: programId, partner_id: partnerId },
      { seq, kind, entry_id: entryId, amount_cents: amountCents, currency, created_at: iso(at), test_mode: testMode },
      head?.hash ?? GENESIS,
    )
    const hash = createHash('sha256').update(text).digest('hex')
    this.s.link[kind].run(seq, hash, entryId)
    this.heads.set(partnerId, { seq, hash })
    this.touched.add(partnerId)
  }

  private storedHead(partnerId: number): Head | null {
    const commission = this.s.lastCommission.get(partnerId) as Head | null
    const payout = this.s.lastPayout.get(partnerId) as Head | null
    if (!commission || !payout) return commission ?? payout
    return commission.seq > payout.seq ? commission : payout
  }

  /** Drops the heads of the partners appended to in this batch: their next append reads the stored head. */
  forget(): void {
    for (const partnerId of this.touched) this.heads.delete(partnerId)
    this.touched.clear()
  }

  /** A partner's chain up to (not including) `until`, each entry with its fields as stored now. */
  entries(partnerId: number, until: number): StatementEntry[] {
    const rows = this.s.entries.all(partnerId, until) as {
      seq: number
      kind: Kind
      entry_id: number
      hash: string
      amount_cents: number
      currency: string
      at: number
      test_mode: number
    }[]
    return rows.map((r) => ({
      seq: r.seq,
      kind: r.kind,
      entry_id: r.entry_id,
      amount_cents: r.amount_cents,
      currency: r.currency,
      created_at: iso(r.at),
      test_mode: r.test_mode === 1,
      hash: r.hash,
    }))
  }

  /**
   * Links the entries booked before the chain existed (migration 0016): every commission,
   * reversal, payout and cancellation without a link, in the order they were booked (each table
   * in id order). Answers how many it linked; run when the database opens, in one transaction.
   */
  backfill(): number {
    this.heads.clear()
    this.touched.clear()
    const { client } = this.connection
    const missing = client
      .prepare(`SELECT * FROM (
          SELECT program_id, partner_id, kind, id AS entry_id, amount_cents, currency, created_at AS at, test_mode, 0 AS side
            FROM commissions WHERE chain_seq IS NULL
          UNION ALL
          SELECT program_id, partner_id, 'payout', id, -amount_cents, currency, created_at, 0, 1 FROM payouts WHERE chain_seq IS NULL
          UNION ALL
          SELECT program_id, partner_id, 'payout_canceled', id, amount_cents, currency, canceled_at, 0, 2
            FROM payouts WHERE canceled_at IS NOT NULL AND cancel_seq IS NULL
        ) ORDER BY side, entry_id`)
      .all() as {
      program_id: number
      partner_id: number
      kind: Kind
      entry_id: number
      amount_cents: number
      currency: string
      at: number
      test_mode: number
      side: number
    }[]
    // Each kind in id order, merged by time: a commission never gets a lower seq than an earlier id's.
    const sides = [0, 1, 2].map((side) => missing.filter((e) => e.side === side))
    const next = sides.map(() => 0)
    for (let n = 0; n < missing.length; n++) {
      let pick = -1
      for (let side = 0; side < sides.length; side++) {
        const e = sides[side]![next[side]!]
        if (e && (pick < 0 || e.at < sides[pick]![next[pick]!]!.at)) pick = side
      }
      const e = sides[pick]![next[pick]!++]!
      this.append(e.program_id, e.partner_id, e.kind, e.entry_id, e.amount_cents, e.currency, e.at, e.test_mode === 1)
    }
    this.touched.clear()
    return missing.length
  }
}
