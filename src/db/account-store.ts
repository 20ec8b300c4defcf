import { eq } from 'drizzle-orm'
import { emailKey } from '../domain/email.ts'
import type { Connection } from './open.ts'
import { accounts, advertisers, type Account, members, programs } from './schema.ts'

/** Accounts and their advertiser (brand profile). Writes run inside a writer unit. */
export class AccountStore {
  constructor(private readonly connection: Connection) {}

  /** Creates an account and its advertiser. */
  createAccount(values: { email: string; name?: string; createdAt: number }): { accountId: number; advertiserId: number } {
    const { db } = this.connection
    const account = db
      .insert(accounts)
      .values({ ...values, emailKey: emailKey(values.email) })
      .returning({ id: accounts.id })
      .get()
    const advertiser = db
      .insert(advertisers)
      .values({ accountId: account.id, name: values.name, createdAt: values.createdAt })
      .returning({ id: advertisers.id })
      .get()
    // The account's own email is its owner member (docs/decisions.md, Teams and the audit log).
    db.insert(members)
      .values({ accountId: account.id, email: values.email, emailKey: emailKey(values.email), role: 'owner', createdAt: values.createdAt })
      .run()
    return { accountId: account.id, advertiserId: advertiser.id }
  }

  /** Whether any account exists: none means the first run, with /setup open (docs/decisions.md, First run). */
  hasAccounts(): boolean {
    return this.connection.db.select({ id: accounts.id }).from(accounts).limit(1).get() !== undefined
  }

  findAccount(id: number): Account | null {
    return this.connection.db.select().from(accounts).where(eq(accounts.id, id)).get() ?? null
  }

  setSuspended(id: number, suspended: boolean): void {
    this.connection.db.update(accounts).set({ suspended }).where(eq(accounts.id, id)).run()
  }

  /** The advertiser of an account, or null when it has none. */
  findAdvertiser(accountId: number): { id: number } | null {
    return this.connection.db.select({ id: advertisers.id }).from(advertisers).where(eq(advertisers.accountId, accountId)).get() ?? null
  }

  /** The email of the account that owns an advertiser (the owner's address for new applications), or null. */
  ownerEmailOf(advertiserId: number): string | null {
    return (
      this.connection.db
        .select({ email: accounts.email })
        .from(advertisers)
        .innerJoin(accounts, eq(accounts.id, advertisers.accountId))
        .where(eq(advertisers.id, advertiserId))
        .get()?.email ?? null
    )
  }

  /** The account that owns an advertiser, or null. */
  accountOfAdvertiser(advertiserId: number): number | null {
    return (
      this.connection.db.select({ accountId: advertisers.accountId }).from(advertisers).where(eq(advertisers.id, advertiserId)).get()
        ?.accountId ?? null
    )
  }

  /** The account that owns a program, or null. */
  accountOfProgram(programId: number): number | null {
    return (
      this.connection.db
        .select({ accountId: advertisers.accountId })
        .from(programs)
        .innerJoin(advertisers, eq(advertisers.id, programs.advertiserId))
        .where(eq(programs.id, programId))
        .get()?.accountId ?? null
    )
  }
}
