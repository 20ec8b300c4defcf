// The maintained domain lists the fraud rules read (docs/fraud.md): disposable mail services
// (exact and wildcard) and public mail providers. Loaded by tracking/fraud-check.ts before the
// first fraud check, never at start (issue 36: about 25 ms and 10 MB a start that may never check).
import disposableDomains from 'disposable-email-domains/index.json' with { type: 'json' }
import disposableWildcards from 'disposable-email-domains/wildcard.json' with { type: 'json' }
import publicProviders from 'email-providers/all.json' with { type: 'json' }

export const domainLists = {
  disposable: disposableDomains as string[],
  disposableWildcards: disposableWildcards as string[],
  providers: publicProviders as string[],
}
