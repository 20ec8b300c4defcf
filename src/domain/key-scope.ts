/**
 * A program key's scope (docs/decisions.md, Safety, third round): `manage` is the program's own
 * key (made with the program, shown at setup, regenerated and rotated); `track` keys only report
 * clicks, leads, sales and refunds, and read readiness and the CLI's status, so that the key on
 * the advertiser's web server cannot approve commissions or subscribe webhooks.
 */
export const KEY_SCOPES = ['manage', 'track'] as const
export type KeyScope = (typeof KEY_SCOPES)[number]
