import { AccountStore } from './account-store.ts'
import { AuditStore } from './audit-store.ts'
import { Catalog } from './catalog.ts'
import { ChainStore } from './chain-store.ts'
import { CliStore } from './cli-store.ts'
import { ConnectAccountStore } from './connect-account-store.ts'
import { CountStore } from './count-store.ts'
import { CouponStore } from './coupon-store.ts'
import { DashboardStore } from './dashboard-store.ts'
import { EmailStore } from './email-store.ts'
import { FigureStore } from './figure-store.ts'
import { GroupStore } from './group-store.ts'
import { ImportStore } from './import-store.ts'
import { ImportWriteStore } from './import-writes.ts'
import { ListStore } from './list-store.ts'
import { MemberStore } from './member-store.ts'
import type { Connection, OpenOptions } from './open.ts'
import { PartnerStore } from './partner-store.ts'
import { PayoutSendStore } from './payout-send-store.ts'
import { PayoutStore } from './payout-store.ts'
import { LedgerBalanceStore } from './ledger-balances.ts'
import { ProcessorEventStore } from './processor-events.ts'
import { ProgramStore } from './program-store.ts'
import { SaleStore } from './sale-store.ts'
import { SettingsStore } from './settings-store.ts'
import { TrackingStore } from './tracking-store.ts'
import { WebSessionStore } from './web-session-store.ts'
import { WebhookStore } from './webhook-store.ts'

/**
 * Every store of one database, built once when it opens (openDatabase) and reached through
 * `deps.database.stores`. The pattern is in src/db/README.md: a new store is a class over the
 * Connection, added here.
 */
export function createStores(connection: Connection, options: OpenOptions = {}) {
  const catalog = new Catalog(connection.writer, options.catalog ?? true)
  const programs = new ProgramStore(connection, catalog)
  const chain = new ChainStore(connection)
  const counts = new CountStore(connection)
  return {
    accounts: new AccountStore(connection),
    audit: new AuditStore(connection),
    chain,
    cli: new CliStore(connection, catalog),
    connectAccounts: new ConnectAccountStore(connection),
    counts,
    coupons: new CouponStore(connection),
    dashboard: new DashboardStore(connection, catalog, programs),
    emails: new EmailStore(connection),
    events: new ProcessorEventStore(connection),
    figures: new FigureStore(connection, counts),
    groups: new GroupStore(connection, catalog),
    imports: new ImportStore(connection),
    importWrites: new ImportWriteStore(connection, catalog),
    lists: new ListStore(connection),
    members: new MemberStore(connection),
    partners: new PartnerStore(connection, catalog),
    payouts: new PayoutStore(connection, chain),
    balances: new LedgerBalanceStore(connection),
    payoutSends: new PayoutSendStore(connection),
    programs,
    sales: new SaleStore(connection, chain),
    settings: new SettingsStore(connection),
    tracking: new TrackingStore(connection, catalog),
    webSessions: new WebSessionStore(connection),
    webhooks: new WebhookStore(connection, catalog),
  }
}

export type Stores = ReturnType<typeof createStores>
