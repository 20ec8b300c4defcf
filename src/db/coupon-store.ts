import { asc, eq } from 'drizzle-orm'
import { uniqueViolation } from './errors.ts'
import type { Connection } from './open.ts'
import { type Coupon, coupons } from './schema.ts'

/** A coupon as a sale finds it: its code as stored and the partner it attributes. */
export type CouponMatch = { code: string; partnerId: number }

/**
 * Partners' coupon codes (schema.ts, coupons; docs/decisions.md, Attribution without the cookie).
 * Codes are unique per program without regard to case; a sale matches them the same way.
 */
export class CouponStore {
  private readonly s

  constructor(private readonly connection: Connection) {
    const { client } = connection
    // Only an active partner's coupon attributes: a suspended, rejected or deleted partner's is ignored.
    const active = "JOIN partners p ON p.id = c.partner_id AND p.status = 'active' AND p.deleted_at IS NULL"
    this.s = {
      byCode: client.prepare(`SELECT c.code, c.partner_id AS partnerId FROM coupons c ${active} WHERE c.program_id = ? AND c.code_key = ?`),
      byPromotion: client.prepare(
        `SELECT c.code, c.partner_id AS partnerId FROM coupons c ${active} WHERE c.program_id = ? AND c.stripe_promotion_code = ? ORDER BY c.id LIMIT 1`,
      ),
    }
  }

  /** Adds a coupon; 'taken' when the program has the code already in any case. */
  create(values: {
    programId: number
    partnerId: number
    code: string
    stripePromotionCode: string | null
    createdAt: number
  }): Coupon | 'taken' {
    try {
      return this.connection.db
        .insert(coupons)
        .values({ ...values, codeKey: values.code.toLowerCase() })
        .returning()
        .get()
    } catch (error) {
      if (uniqueViolation(error)?.on === 'code') return 'taken'
      throw error
    }
  }

  /** The program's coupons, oldest first (a program has few: they are typed by hand). */
  list(programId: number): Coupon[] {
    return this.connection.db.select().from(coupons).where(eq(coupons.programId, programId)).orderBy(asc(coupons.id)).all()
  }

  /** A partner's coupons, oldest first (the portal and the partner's dashboard page). */
  ofPartner(partnerId: number): Coupon[] {
    return this.connection.db.select().from(coupons).where(eq(coupons.partnerId, partnerId)).orderBy(asc(coupons.id)).all()
  }

  find(couponId: number): Coupon | null {
    return this.connection.db.select().from(coupons).where(eq(coupons.id, couponId)).get() ?? null
  }

  /** Deletes a coupon; false when there is none. */
  remove(couponId: number): boolean {
    return this.connection.db.delete(coupons).where(eq(coupons.id, couponId)).returning({ id: coupons.id }).all().length > 0
  }

  /** The active partner's coupon of `code` (any case) in the program, or null. */
  match(programId: number, code: string): CouponMatch | null {
    return (this.s.byCode.get(programId, code.toLowerCase()) as CouponMatch | null) ?? null
  }

  /** The active partner's coupon carrying this Stripe promotion code (promo_…), or null. */
  matchPromotion(programId: number, promotionCode: string): CouponMatch | null {
    return (this.s.byPromotion.get(programId, promotionCode) as CouponMatch | null) ?? null
  }
}
