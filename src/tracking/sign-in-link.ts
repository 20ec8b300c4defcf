import type { Principal } from '../db/web-session-store.ts'
import { iso } from '../domain/time.ts'
import type { TrackingDeps } from './deps.ts'

/** docs/decisions.md (Dashboard and partner portal): a sign-in link works once, for 10 minutes. */
export const SIGN_IN_LINK_LIFETIME_MS = 10 * 60_000

/**
 * Issues a one-time sign-in link for `who`: `url` absolute on `baseUrl` (PUBLIC_BASE_URL), and
 * `expires_at`. The operator API, the CLI's dashboard-link and the dashboard's portal-link button
 * all make their links here.
 */
export async function issueSignInLink(
  { database, clock }: TrackingDeps,
  baseUrl: string,
  who: Principal,
): Promise<{ url: string; expires_at: string }> {
  const link = await database.writer.run(() => database.stores.webSessions.createSignInLink(who, clock.now(), SIGN_IN_LINK_LIFETIME_MS))
  return { url: `${baseUrl}/sign-in/${link.token}`, expires_at: iso(link.expiresAt) }
}
