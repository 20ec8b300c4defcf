import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { CommissionType } from '../domain/commission.ts'
import type { Catalog } from './catalog.ts'
import { hashSecret, newToken, type KeyMatch } from './credentials.ts'
import { uniqueViolation, type Taken } from './errors.ts'
import { partnerEmail } from './email-keys.ts'
import type { Connection } from './open.ts'
import { apiKeys, links, partners, programs, type ApiKey, type Link, type Program } from './schema.ts'

const p = sql.placeholder

/** The fields an owner sets on a program, at creation and in later changes. */
type ProgramSettings =
  | 'name'
  | 'domain'
  | 'siteUrl'
  | 'commissionType'
  | 'commissionRate'
  | 'leadAuth'
  | 'attributionWindowDays'
  | 'allowedOrigins'
  | 'livemode'
  | 'holdingPeriodDays'
  | 'minimumPayout'
  | 'minimumPayouts'
  | 'currencies'
  | 'recurringMonths'
  | 'partnerSignup'
  | 'fraudReview'

export type NewProgram = Pick<typeof programs.$inferInsert, 'advertiserId' | ProgramSettings | 'createdAt'>

export type ProgramChanges = Partial<
  Pick<
    Program,
    | ProgramSettings
    | 'stripeAccountId'
    | 'stripeWebhookSecrets'
    | 'paddleWebhookSecret'
    | 'lemonsqueezyWebhookSecret'
    | 'polarWebhookSecret'
  >
>

/**
 * Programs, their API keys, partners and referral links: the rows the catalog copies. Every
 * write here calls catalog.changed(), so a regenerated or retired key, a link turned off or a
 * new domain is seen by the next request with nothing for a caller to remember. Writes run
 * inside a writer unit.
 */
export class ProgramStore {
  private readonly keyQuery
  private readonly programQuery
  /**
   * SHA-256 once per key, not once per request: a program's server sends the same key all day.
   * Bounded, so that a scan of made-up keys cannot grow it; the match itself stays in the catalog.
   */
  private readonly hashes = new Map<string, string>()

  constructor(
    private readonly connection: Connection,
    private readonly catalog: Catalog,
  ) {
    const { db } = connection
    this.keyQuery = db
      .select({ program: programs, key: apiKeys })
      .from(apiKeys)
      .innerJoin(programs, eq(programs.id, apiKeys.programId))
      .where(and(eq(apiKeys.keyHash, p('hash')), isNull(apiKeys.revokedAt)))
      .prepare()
    this.programQuery = db
      .select()
      .from(programs)
      .where(eq(programs.id, p('id')))
      .prepare()
  }

  /** The program of an unrevoked API key, or null; kept in the catalog until a key or program changes. */
  findKey(token: string): KeyMatch | null {
    let hash = this.hashes.get(token)
    if (hash === undefined) {
      hash = hashSecret(token)
      if (this.hashes.size >= 10_000) this.hashes.clear()
      this.hashes.set(token, hash)
    }
    // Found by its digest (a Map key, then SQL's equality on key_hash): no secret is compared here,
    // and comparing the row's digest with the one it was found by could only say yes.
    return this.catalog.row(`key:${hash}`, () => (this.keyQuery.get({ hash }) as KeyMatch | undefined) ?? null)
  }

  findProgram(id: number): Program | null {
    return this.programQuery.get({ id }) ?? null
  }

  /** Every program, newest first. */
  listPrograms(): Program[] {
    return this.connection.db.select().from(programs).orderBy(desc(programs.id)).all()
  }

  /** An advertiser's programs, oldest first. */
  programsOfAdvertiser(advertiserId: number): Program[] {
    return this.connection.db.select().from(programs).where(eq(programs.advertiserId, advertiserId)).orderBy(programs.id).all()
  }

  /** The program's unrevoked `manage` key (the program's own: shown at setup, regenerated, rotated), or null. */
  currentKey(programId: number): ApiKey | null {
    return (
      this.connection.db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.programId, programId), eq(apiKeys.scope, 'manage'), isNull(apiKeys.revokedAt)))
        .get() ?? null
    )
  }

  /** The program's unrevoked keys, the manage key first, then track keys oldest first. */
  listKeys(programId: number): ApiKey[] {
    return this.connection.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.programId, programId), isNull(apiKeys.revokedAt)))
      .orderBy(sql`${apiKeys.scope} = 'track'`, apiKeys.id)
      .all()
  }

  /** Issues a `track` key (domain/key-scope.ts) beside the program's others; the row and its plaintext, shown once. */
  issueTrackKey(programId: number, name: string | null, now: number): { key: ApiKey; apiKey: string } {
    this.catalog.changed()
    const apiKey = newToken('svc_track_')
    const key = this.connection.db
      .insert(apiKeys)
      .values({ programId, keyHash: hashSecret(apiKey), keyPrefix: apiKey.slice(0, 14), scope: 'track', name, createdAt: now })
      .returning()
      .get()
    return { key, apiKey }
  }

  /** The unrevoked key with this id, or null. */
  unrevokedKey(keyId: number): ApiKey | null {
    return (
      this.connection.db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
        .get() ?? null
    )
  }

  /** Revokes a key: it answers 401 at once. */
  revokeKey(keyId: number, now: number): void {
    this.catalog.changed()
    this.connection.db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, keyId)).run()
  }

  /** Domain and allowed origins of every program (what a CORS preflight checks), kept in the catalog. */
  browserOrigins(): Pick<Program, 'domain' | 'siteUrl' | 'allowedOrigins'>[] {
    return this.catalog.derived(() =>
      this.connection.db
        .select({ domain: programs.domain, siteUrl: programs.siteUrl, allowedOrigins: programs.allowedOrigins })
        .from(programs)
        .all(),
    )
  }

  /** Creates a program and its first API key; returns the key's plaintext, shown once. */
  createProgram(values: NewProgram): { programId: number; apiKey: string } {
    this.catalog.changed()
    const { id } = this.connection.db.insert(programs).values(values).returning({ id: programs.id }).get()
    return { programId: id, apiKey: this.issueKey(id, values.createdAt) }
  }

  /** Changes a program; null when it does not exist, Taken when stripe_account_id belongs to another. */
  updateProgram(id: number, changes: ProgramChanges): Program | Taken | null {
    this.catalog.changed()
    if (!this.findProgram(id)) return null
    if (Object.values(changes).some((v) => v !== undefined)) {
      try {
        this.connection.db.update(programs).set(changes).where(eq(programs.id, id)).run()
      } catch (error) {
        const taken = uniqueViolation(error)
        if (taken) return taken
        throw error
      }
    }
    return this.findProgram(id)
  }

  /**
   * Issues a new manage key for a program, revoking the previous one in the same write
   * (regeneration: the old key answers 401 at once; track keys stay). Returns the plaintext key, shown once.
   */
  issueKey(programId: number, now: number): string {
    this.catalog.changed()
    const key = newToken('svc_live_')
    const { db } = this.connection
    db.update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.programId, programId), eq(apiKeys.scope, 'manage'), isNull(apiKeys.revokedAt)))
      .run()
    db.insert(apiKeys)
      .values({ programId, keyHash: hashSecret(key), keyPrefix: key.slice(0, 13), createdAt: now })
      .run()
    return key
  }

  /** Marks the program's current key for rotation by `rotateBy`; null when it has no key. */
  markRotation(programId: number, now: number, rotateBy: number): ApiKey | null {
    this.catalog.changed()
    const key = this.currentKey(programId)
    if (!key) return null
    this.connection.db.update(apiKeys).set({ rotationMarkedAt: now, rotateBy }).where(eq(apiKeys.id, key.id)).run()
    return this.currentKey(programId)
  }

  /** Adds a partner to a program; returns its id. */
  createPartner(values: {
    programId: number
    name?: string
    email?: string
    commissionType?: CommissionType | null
    commissionRate?: number | null
    recurringMonths?: number | null
    groupId?: number | null
    createdAt: number
  }): number {
    return this.connection.db
      .insert(partners)
      .values({ ...values, ...partnerEmail(values.email) })
      .returning({ id: partners.id })
      .get().id
  }

  /** Whether `partnerId` is a partner of `programId`. */
  partnerOf(programId: number, partnerId: number): boolean {
    return (
      this.connection.db
        .select({ id: partners.id })
        .from(partners)
        .where(and(eq(partners.id, partnerId), eq(partners.programId, programId)))
        .get() !== undefined
    )
  }

  /** The short link of the partner's first link, or null when it has none. */
  firstShortLink(partnerId: number): string | null {
    return (
      this.connection.db
        .select({ shortLink: links.shortLink })
        .from(links)
        .where(eq(links.partnerId, partnerId))
        .orderBy(links.id)
        .limit(1)
        .get()?.shortLink ?? null
    )
  }

  /** Whether the partner has a referral link (on or off). */
  hasLink(partnerId: number): boolean {
    return this.connection.db.select({ id: links.id }).from(links).where(eq(links.partnerId, partnerId)).limit(1).get() !== undefined
  }

  /** Creates a referral link; Taken when short_link is in use in any program (UNIQUE). */
  createLink(values: {
    programId: number
    partnerId: number
    shortLink: string
    createdAt: number
  }): Pick<Link, 'id' | 'shortLink'> | Taken {
    this.catalog.changed()
    try {
      return this.connection.db.insert(links).values(values).returning({ id: links.id, shortLink: links.shortLink }).get()
    } catch (error) {
      const taken = uniqueViolation(error)
      if (taken) return taken
      throw error
    }
  }

  /** Turns a link on or off; false when no link has that id. */
  setLinkActive(id: number, active: boolean): boolean {
    this.catalog.changed()
    return this.connection.db.update(links).set({ active }).where(eq(links.id, id)).returning({ id: links.id }).all().length > 0
  }
}
