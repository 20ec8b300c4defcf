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
 * Every store of one database, reached through `deps.database.stores`. The pattern is in
 * src/db/README.md: a new store is a class over the Connection, added here. Each store is built
 * with its first use, then kept: its constructor prepares its statements, and an idle server uses
 * few of the 26 (issue 36: about 80 statements and 0.6 MB of heap at every start otherwise).
 */
export class Stores {
  private readonly catalog: Catalog

  constructor(
    private readonly connection: Connection,
    options: OpenOptions = {},
  ) {
    this.catalog = new Catalog(connection.writer, options.catalog ?? true)
    // Built at once: these two register writer hooks (chain-store.ts, tracking-store.ts), which run
    // in the order registered; a hook registered later (a test's failing COMMIT) runs after theirs.
    this.#chain = new ChainStore(connection)
    this.#tracking = new TrackingStore(connection, this.catalog)
  }

  #accounts?: AccountStore
  #audit?: AuditStore
  #chain?: ChainStore
  #cli?: CliStore
  #connectAccounts?: ConnectAccountStore
  #counts?: CountStore
  #coupons?: CouponStore
  #dashboard?: DashboardStore
  #emails?: EmailStore
  #events?: ProcessorEventStore
  #figures?: FigureStore
  #groups?: GroupStore
  #imports?: ImportStore
  #importWrites?: ImportWriteStore
  #lists?: ListStore
  #members?: MemberStore
  #partners?: PartnerStore
  #payouts?: PayoutStore
  #balances?: LedgerBalanceStore
  #payoutSends?: PayoutSendStore
  #programs?: ProgramStore
  #sales?: SaleStore
  #settings?: SettingsStore
  #tracking?: TrackingStore
  #webSessions?: WebSessionStore
  #webhooks?: WebhookStore

  get accounts(): AccountStore {
    return (this.#accounts ??= new AccountStore(this.connection))
  }
  get audit(): AuditStore {
    return (this.#audit ??= new AuditStore(this.connection))
  }
  get chain(): ChainStore {
    return (this.#chain ??= new ChainStore(this.connection))
  }
  get cli(): CliStore {
    return (this.#cli ??= new CliStore(this.connection, this.catalog))
  }
  get connectAccounts(): ConnectAccountStore {
    return (this.#connectAccounts ??= new ConnectAccountStore(this.connection))
  }
  get counts(): CountStore {
    return (this.#counts ??= new CountStore(this.connection))
  }
  get coupons(): CouponStore {
    return (this.#coupons ??= new CouponStore(this.connection))
  }
  get dashboard(): DashboardStore {
    return (this.#dashboard ??= new DashboardStore(this.connection, this.catalog, this.programs))
  }
  get emails(): EmailStore {
    return (this.#emails ??= new EmailStore(this.connection))
  }
  get events(): ProcessorEventStore {
    return (this.#events ??= new ProcessorEventStore(this.connection))
  }
  get figures(): FigureStore {
    return (this.#figures ??= new FigureStore(this.connection, this.counts))
  }
  get groups(): GroupStore {
    return (this.#groups ??= new GroupStore(this.connection, this.catalog))
  }
  get imports(): ImportStore {
    return (this.#imports ??= new ImportStore(this.connection))
  }
  get importWrites(): ImportWriteStore {
    return (this.#importWrites ??= new ImportWriteStore(this.connection, this.catalog))
  }
  get lists(): ListStore {
    return (this.#lists ??= new ListStore(this.connection))
  }
  get members(): MemberStore {
    return (this.#members ??= new MemberStore(this.connection))
  }
  get partners(): PartnerStore {
    return (this.#partners ??= new PartnerStore(this.connection, this.catalog))
  }
  get payouts(): PayoutStore {
    return (this.#payouts ??= new PayoutStore(this.connection, this.chain))
  }
  get balances(): LedgerBalanceStore {
    return (this.#balances ??= new LedgerBalanceStore(this.connection))
  }
  get payoutSends(): PayoutSendStore {
    return (this.#payoutSends ??= new PayoutSendStore(this.connection))
  }
  get programs(): ProgramStore {
    return (this.#programs ??= new ProgramStore(this.connection, this.catalog))
  }
  get sales(): SaleStore {
    return (this.#sales ??= new SaleStore(this.connection, this.chain))
  }
  get settings(): SettingsStore {
    return (this.#settings ??= new SettingsStore(this.connection))
  }
  get tracking(): TrackingStore {
    return (this.#tracking ??= new TrackingStore(this.connection, this.catalog))
  }
  get webSessions(): WebSessionStore {
    return (this.#webSessions ??= new WebSessionStore(this.connection))
  }
  get webhooks(): WebhookStore {
    return (this.#webhooks ??= new WebhookStore(this.connection, this.catalog))
  }
}

/** The stores of a connection (openDatabase; test/helpers.ts builds them over its own). */
export function createStores(connection: Connection, options: OpenOptions = {}): Stores {
  return new Stores(connection, options)
}
