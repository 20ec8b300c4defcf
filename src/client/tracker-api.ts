// Types of the browser global `window.svc`, shared by the tracker (tracker/src/api.ts re-exports
// them) and browser.ts, so the typed client cannot drift from what the script really exposes.

/** Options accepted by `svc.init` (and by the stub queue before the script loads). */
export type SvcInitOptions = {
  /** Program id; accepted and sent nowhere (the click endpoint finds the program from the `aff` link). */
  programId?: number
  /** Cookie domain such as ".shop.com"; overrides root-domain detection. */
  cookieDomain?: string
  /** Log info and warnings prefixed "[svc]"; errors are always logged. */
  debug?: boolean
}

/** The loaded tracker. Every method swallows its own errors: nothing throws into the page. */
export type SvcApi = {
  /** The `svc_click_id` cookie, or null when absent or cookies are blocked. */
  getClickId(): string | null
  /**
   * Reports a browser-mode lead (POST /api/v1/track/lead, sent with keepalive).
   * Waits for a click still in flight; resolves to the response body, or null on failure.
   */
  signup(customerId: string, email?: string): Promise<unknown>
  /** Merges options; call before the click answers for cookieDomain to apply to it. */
  init(options: SvcInitOptions): void
  /**
   * Consent mode (`data-svc-consent="required"` on the script tag): true lets the tracker record
   * this page view's click and write its cookie; false deletes the cookie and stops tracking.
   * Without the attribute the tracker needs no consent call.
   */
  consent(granted: boolean): void
}

/** What the README stub snippet leaves on `window.svc` before the script loads. */
export type SvcStub = { q?: [string, ArrayLike<unknown>][] }
