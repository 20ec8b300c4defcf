// Launches Debian's Chromium through playwright-core. Without /usr/bin/chromium the
// browser suites skip with a message, except on CI (CI=true), where that is a failure.
import { describe } from 'bun:test'
import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

const EXECUTABLE = '/usr/bin/chromium'
const present = existsSync(EXECUTABLE)

if (!present) {
  const message = `${EXECUTABLE} not found: the real-browser tests cannot run`
  if (process.env.CI === 'true') throw new Error(message)
  console.warn(`SKIPPED: ${message} (install Debian's chromium package to run them)`)
}

/** `describe` when Chromium exists, `describe.skip` otherwise. */
export const describeBrowser: typeof describe = present ? describe : (describe.skip as typeof describe)

/** Chromium with every *.shop.test host resolved to this machine. */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: EXECUTABLE,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP *.shop.test 127.0.0.1',
      // Only the HTTPS test's self-signed certificate depends on this.
      '--ignore-certificate-errors',
    ],
  })
}

export type Watched = { page: Page; logs: string[]; errors: string[] }

/** A page whose console lines ("type: text") and uncaught page errors are recorded. */
export async function watchedPage(context: BrowserContext): Promise<Watched> {
  const page = await context.newPage()
  const logs: string[] = []
  const errors: string[] = []
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`))
  page.on('pageerror', (e) => errors.push(String(e)))
  return { page, logs, errors }
}

/** Runs action and waits until the page's click request was answered and handled. */
export async function clicked(page: Page, action: () => Promise<unknown>): Promise<void> {
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/track/click'))
  await action()
  await (await answer).finished()
  // The tracker writes the cookie a few microtasks after the body arrives.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)))
}
