// Browser part of the client library: loads {base_url}/tracker.js once and hands back the
// typed `window.svc`. The tracker itself stays dependency-free; this is only the loader.
import type { SvcApi, SvcInitOptions, SvcStub } from './tracker-api.js'

export type { SvcApi, SvcInitOptions } from './tracker-api.js'

export type LoadOptions = SvcInitOptions & {
  /** {base_url} of the service; the script is `${baseUrl}/tracker.js`. */
  baseUrl: string
  programId: number
  /** Consent mode: nothing is sent and no cookie written until `svc.consent(true)` (data-svc-consent="required"). */
  consentRequired?: boolean
}

declare global {
  interface Window {
    svc?: SvcApi | SvcStub
  }
}

let loading: Promise<SvcApi> | null = null

const isLoaded = (svc: Window['svc']): svc is SvcApi => !!svc && 'getClickId' in svc

/**
 * Injects the tracker script (once per page, whatever the arguments of later calls) and
 * resolves to its API. Options reach the tracker through the stub queue, so they apply
 * before its click. Rejects only when the script cannot load; outside a browser, rejects.
 */
export function loadSvc(options: LoadOptions): Promise<SvcApi> {
  if (typeof window === 'undefined') return Promise.reject(new Error('[svc] loadSvc needs a browser'))
  if (isLoaded(window.svc)) return Promise.resolve(window.svc)
  if (loading) return loading
  const { baseUrl, programId, cookieDomain, debug } = options
  const stub: SvcStub = (window.svc as SvcStub | undefined) ?? {}
  stub.q = stub.q ?? []
  stub.q.push(['init', [{ programId, cookieDomain, debug }]])
  window.svc = stub
  loading = new Promise<SvcApi>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = baseUrl.slice(0, endWithoutSlashes(baseUrl)) + '/tracker.js'
    script.async = true
    script.dataset.svcProgramId = String(programId)
    if (options.consentRequired) script.dataset.svcConsent = 'required'
    script.onload = () => (isLoaded(window.svc) ? resolve(window.svc) : reject(new Error('[svc] tracker did not start')))
    script.onerror = () => {
      loading = null // a later call may try again, e.g. after a network blip
      script.remove()
      reject(new Error(`[svc] could not load ${script.src}`))
    }
    document.head.appendChild(script)
  })
  return loading
}

/** The loaded tracker API, or null before it has loaded (and always on the server). */
export function getSvc(): SvcApi | null {
  return typeof window !== 'undefined' && isLoaded(window.svc) ? window.svc : null
}

/** Where `url` ends once its trailing slashes are left off (by hand: no backtracking expression). */
function endWithoutSlashes(url: string): number {
  let end = url.length
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--
  return end
}
