import { html, type Safe } from './html.ts'

const SECURITY_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // Everything comes from this server: no other host is ever asked for anything.
  'content-security-policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  // same-origin, not no-referrer: with no-referrer Chromium sends "Origin: null" on our own forms.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
}

export interface Chrome {
  title: string
  /** Shown in the top bar: who is signed in, with the sign-out form; `brand` replaces "svc" (the portal shows the program's name). */
  who?: { label: string; csrf: string; home: string; brand?: string }
  /** The top bar's name on a page nobody is signed in to (the join page shows the program's). */
  brand?: string
}

/** A whole page: the top bar, the stylesheet and script of /assets, and `body`. */
export function page(chrome: Chrome, body: Safe, status = 200, headers: Record<string, string> = {}): Response {
  const who = chrome.who
  const doc = html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${chrome.title} · svc</title>
<link rel="stylesheet" href="/assets/dashboard.css"><link rel="icon" href="/assets/favicon.svg">
<script src="/assets/dashboard.js" defer></script></head><body>
<header class="top"><a href="${who?.home ?? '/sign-in'}">${who?.brand ?? chrome.brand ?? 'svc'}</a>${
    who
      ? html`<div class="row"><span>${who.label}</span>
<form method="post" action="/sign-out"><input type="hidden" name="_csrf" value="${who.csrf}"><button class="quiet">Sign out</button></form></div>`
      : ''
  }</header>
<main>${body}</main></body></html>`
  return new Response(doc.text, { status, headers: { ...SECURITY_HEADERS, ...headers } })
}

/** A 303 to `location` (after a form post, or to the sign-in page). */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } })
}

/** The hidden form token every form of a signed-in page carries. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`
