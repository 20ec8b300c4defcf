// Compiled (never run) by test/client/package.test.ts: `tsc` fails when the client package's
// plain types differ from the server's TypeBox schemas, so the two copies cannot drift.
import type * as Server from '../../src/http/track/answers.ts'
import type { DEFAULT_CURRENCIES } from '../../src/domain/currency.ts'
import type { PROVIDERS } from '../../src/http/track/schemas.ts'
import type * as Client from '../../src/client/answers.ts'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

export const same: [
  Equal<Client.LeadData, Server.LeadData>,
  Equal<Client.SaleData, Server.SaleData>,
  Equal<Client.RefundData, Server.RefundData>,
  Equal<Client.DiscountData, Server.DiscountData>,
  Equal<Client.Currency, (typeof DEFAULT_CURRENCIES)[number]>,
  Equal<Client.Provider, (typeof PROVIDERS)[number]>,
] = [true, true, true, true, true, true]
