import { AccountStore } from './account-store'
import { Catalog } from './catalog'
import { CliStore } from './cli-store'
import { CountStore } from './count-store'
import { DashboardStore } from './dashboard-store'
import { ListStore } from './list-store'
import type { Connection, OpenOptions } from './open'
import { PayoutStore } from './payout-store'
import { ProcessorEventStore } from './processor-events'
import { ProgramStore } from './program-store'
import { SaleStore } from './sale-store'
import { SettingsStore } from './settings-store'
import { TrackingStore } from './tracking-store'
import { WebSessionStore } from './web-session-store'

/**
 * Every store of one database, built once when it opens (openDatabase) and reached through
 * `deps.database.stores`. The pattern is in src/db/README.md: a new store is a class over the
 * Connection, added here.
 */
export function createStores(connection: Connection, options: OpenOptions = {}) {
  const catalog = new Catalog(connection.writer, options.catalog ?? true)
  const programs = new ProgramStore(connection, catalog)
  return {
    accounts: new AccountStore(connection),
    cli: new CliStore(connection, catalog),
    counts: new CountStore(connection),
    dashboard: new DashboardStore(connection, catalog, programs),
    events: new ProcessorEventStore(connection),
    lists: new ListStore(connection),
    payouts: new PayoutStore(connection),
    programs,
    sales: new SaleStore(connection),
    settings: new SettingsStore(connection),
    tracking: new TrackingStore(connection, catalog),
    webSessions: new WebSessionStore(connection),
  }
}

export type Stores = ReturnType<typeof createStores>
