import { expect } from 'bun:test'
import type { Api } from '../../helpers.ts'

/** The server's PUBLIC_BASE_URL origin: the only Origin a form post may carry. */
export const publicOrigin = (api: Api) => new URL(api.server.deps.config.publicBaseUrl).origin

/**
 * Uses a one-time sign-in link as a browser does: opening it (GET) shows the page with the one
 * "Sign in" button, and that button's POST signs in. Answers the POST's response (303 with
 * Set-Cookie on success); `cookie` is the session the browser already has, if any.
 */
export async function followLink(api: Api, url: string, cookie?: string): Promise<Response> {
  const path = new URL(url).pathname
  const opened = await fetch(api.url + path, { redirect: 'manual', headers: cookie ? { cookie } : {} })
  if (opened.status === 200) expect(await opened.text()).toContain(`action="${path}"`)
  else await opened.text()
  return fetch(api.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: publicOrigin(api), 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: '',
  })
}

/** Signs account `accountId` in through an operator link; answers the `svc_session=…` cookie pair. */
export async function signInAccount(api: Api, accountId: number): Promise<string> {
  const link = (await api.admin('POST', `/accounts/${accountId}/dashboard-link`)).body.data.url
  const opened = await followLink(api, link)
  expect(opened.status).toBe(303)
  return opened.headers.get('set-cookie')!.split(';')[0] as string
}

/** A dashboard page with the session `cookie`, or (with `form`) a same-site form sent to it; redirects are not followed. */
export async function openPage(api: Api, path: string, cookie: string, form?: Record<string, string>) {
  const response = await fetch(api.url + path, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: { cookie, ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: publicOrigin(api) } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}
