// Shared fixture of the browser suites: Chromium, the example shop and a backend whose
// program allows the shop's origins: they carry a port, so the rule "https subdomains of the
// program domain" (default port only) does not cover them and allowed_origins lists them.
import type { Browser, BrowserContext } from 'playwright-core'
import { startShop, type ShopOptions } from '../../examples/shop/server.ts'
import { startBackend, type Backend } from './backend.ts'
import { launch } from './browser.ts'

export const WINDOW_DAYS = 30

export type World = {
  browser: Browser
  backend: Backend
  shop: ReturnType<typeof startShop>
  /** A fresh browser profile (cookies and all) for one test. */
  context(): Promise<BrowserContext>
  stop(): Promise<void>
}

/** Starts everything; `tls` serves the shop over HTTPS. */
export async function startWorld(tls?: ShopOptions['tls']): Promise<World> {
  const service: ShopOptions = { svcUrl: '', apiKey: '', programId: 0, tls }
  const shop = startShop(service)
  const origins = ['www.shop.test', 'app.shop.test', 'secure.shop.test', 'localhost', '127.0.0.1'].map((h) => shop.url(h, ''))
  const backend = await startBackend({ windowDays: WINDOW_DAYS, allowedOrigins: origins })
  Object.assign(service, { svcUrl: backend.url, apiKey: backend.apiKey, programId: backend.programId })
  const browser = await launch()
  const context = () => browser.newContext()
  return {
    browser,
    backend,
    shop,
    context,
    stop: async () => {
      await browser.close()
      await shop.stop()
      await backend.stop()
    },
  }
}

/** Seconds from now until `expires` (a cookie's epoch seconds). */
export const secondsLeft = (expires: number) => expires - Date.now() / 1000

export const DAY = 86_400
