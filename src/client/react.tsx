// React provider for the tracker. Inert on the server: it renders exactly its children, and
// only an effect (which never runs during server rendering) loads the script.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { loadSvc, getSvc, type LoadOptions, type SvcApi } from './browser.js'

const SvcContext = createContext<SvcApi | null>(null)

export type SvcProviderProps = LoadOptions & { children?: ReactNode }

/**
 * Loads the tracker once in the browser and provides its API to useSvc(). The first
 * render (server, and the hydrating one in the browser) provides null so markup matches.
 */
export function SvcProvider({ children, baseUrl, programId, cookieDomain, debug, consentRequired }: SvcProviderProps) {
  const [svc, setSvc] = useState<SvcApi | null>(null)
  useEffect(() => {
    let live = true
    const ready = getSvc()
    if (ready) setSvc(ready)
    else
      loadSvc({ baseUrl, programId, cookieDomain, debug, consentRequired }).then(
        (api) => live && setSvc(api),
        (error) => console.error(String(error?.message ?? error)),
      )
    return () => {
      live = false
    }
  }, [baseUrl, programId, cookieDomain, debug, consentRequired])
  return <SvcContext.Provider value={svc}>{children}</SvcContext.Provider>
}

/** The tracker API, or null on the server and until the script has loaded. */
export function useSvc(): SvcApi | null {
  return useContext(SvcContext)
}
