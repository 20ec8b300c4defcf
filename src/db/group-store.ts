import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Catalog } from './catalog.ts'
import type { Connection } from './open.ts'
import { type PartnerGroup, partnerGroups, partners } from './schema.ts'

/** What an owner sets on a group (undefined fields are left alone; null puts a term back to the program's). */
export type GroupChanges = Partial<
  Pick<
    PartnerGroup,
    | 'name'
    | 'commissionType'
    | 'commissionRate'
    | 'recurringMonths'
    | 'holdingPeriodDays'
    | 'discountCouponId'
    | 'discountDescription'
    | 'partnerSignup'
  >
>

/** A group with how many (not deleted) partners it has. */
export type GroupWithCount = PartnerGroup & { partners: number }

/**
 * A program's partner groups (docs/decisions.md, Groups). A group's terms are read on every
 * attributed sale through PartnerStore.terms (kept in the catalog), so every write here calls
 * catalog.changed(). Writes run inside a writer unit.
 */
export class GroupStore {
  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {}

  /** Group `groupId`, or null; with `programId`, null also when it is another program's. */
  find(groupId: number, programId?: number): PartnerGroup | null {
    const row = this.connection.db.select().from(partnerGroups).where(eq(partnerGroups.id, groupId)).get() ?? null
    return row && (programId === undefined || row.programId === programId) ? row : null
  }

  /** A program's groups, oldest first, each with its number of partners (a program has few: they are made by hand). */
  list(programId: number): GroupWithCount[] {
    // Spelled out: Drizzle writes a one-table select's columns unqualified, and "id" would be the partner's.
    const n = sql<number>`(SELECT count(*) FROM partners p WHERE p.group_id = "partner_groups"."id" AND p.deleted_at IS NULL)`
    return this.connection.db
      .select({ group: partnerGroups, n })
      .from(partnerGroups)
      .where(eq(partnerGroups.programId, programId))
      .orderBy(asc(partnerGroups.id))
      .all()
      .map((row) => ({ ...row.group, partners: row.n ?? 0 }))
  }

  /** Adds a group; returns it. */
  create(values: GroupChanges & { programId: number; name: string; createdAt: number }): PartnerGroup {
    this.catalog.changed()
    return this.connection.db.insert(partnerGroups).values(values).returning().get()
  }

  /** Applies `changes`; the group after, or null when unknown. */
  update(groupId: number, changes: GroupChanges): PartnerGroup | null {
    if (!this.find(groupId)) return null
    const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined))
    this.catalog.changed()
    if (Object.keys(set).length > 0) this.connection.db.update(partnerGroups).set(set).where(eq(partnerGroups.id, groupId)).run()
    return this.find(groupId)
  }

  /**
   * Deletes a group that has no partner (a deleted partner's row keeps pointing at it, so it is
   * let go first). 'has_partners' when a partner is in it; null when unknown.
   */
  remove(groupId: number): 'deleted' | 'has_partners' | null {
    const { db } = this.connection
    if (!this.find(groupId)) return null
    const member = db
      .select({ id: partners.id })
      .from(partners)
      .where(and(eq(partners.groupId, groupId), isNull(partners.deletedAt)))
      .limit(1)
      .get()
    if (member) return 'has_partners'
    this.catalog.changed()
    db.update(partners).set({ groupId: null }).where(eq(partners.groupId, groupId)).run()
    db.delete(partnerGroups).where(eq(partnerGroups.id, groupId)).run()
    return 'deleted'
  }
}
