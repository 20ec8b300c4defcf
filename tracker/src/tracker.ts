// The browser tracker served at GET /tracker.js. Budget: 850 bytes gzipped (see
// test/tracker/size.test.ts), so the code favours short constructs over helpers.
import type { SvcApi, SvcInitOptions, SvcStub } from './api.ts'

type Answer = Record<string, any> | null

;((
  w: any,
  d: Document,
  L: Location,
  opts: SvcInitOptions = {},
  // Errors always, info and warnings with debug; answers null (a failed request's result).
  // A parameter, so that the outer catch can use it whatever threw.
  log = (level: 'info' | 'warn' | 'error', ...args: unknown[]): null => (
    (level == 'error' || opts.debug) && console[level]('[svc]', ...args), null
  ),
) => {
  try {
    const prev: SvcStub & { getClickId?: unknown } = w.svc || {}
    // A second copy of the script must not send a second click; a stub (it has a queue) is replaced.
    if (prev.getClickId && !prev.q) return
    const script = d.currentScript as HTMLScriptElement
    // The cookie goes on the widest domain the browser accepts, tried from the registrable-looking
    // end inwards, else host-only, until it reads back as `id`. Browsers refuse public suffixes,
    // so no suffix list is shipped; single labels (localhost, a bare TLD) and IP hosts get a
    // host-only cookie, and cookieDomain, when given, is the only domain tried. put('', 0)
    // deletes it from every one of them ('' never reads back: an empty value is no cookie).
    const put = (id: string, age: number) => {
      for (
        let labels = L.hostname.split('.'),
          i: number = opts.cookieDomain || /^[\d.]+$|:/.test(L.hostname) ? -1 : labels.length - 2,
          domain: string | undefined;
        i >= -1 && read() != id;
        i--
      ) {
        domain = i < 0 ? opts.cookieDomain : labels.slice(i).join('.')
        // Values go in unencoded: click ids are URL-safe tokens issued by the server.
        try {
          d.cookie =
            'svc_click_id=' +
            id +
            ';path=/;samesite=lax;max-age=' +
            age +
            (domain ? ';domain=' + domain : '') +
            (L.protocol > 'https' ? ';secure' : '') // "https:" only
        } catch {}
      }
    }
    // Consent mode (data-svc-consent="required", any value, even empty): nothing is sent and no
    // cookie written until consent(true); `start` waits for it. consent(false) deletes the cookie
    // and stops for good: `start` then resolves only so that waiting signups answer null.
    let allow: () => void
    let off: any
    const start = new Promise<void>((r) => ((allow = r), script.dataset.svcConsent ?? r()))
    // The svc_click_id cookie, or undefined. document.cookie throws in sandboxed frames and is
    // silently ignored when the user blocks cookies; both end as "no cookie", never as an exception.
    const read = () => {
      try {
        return d.cookie.match(/(^|; )svc_click_id=([^;]+)/)![2]
      } catch {}
    }

    // JSON as text/plain keeps the request "simple": no CORS preflight. The URL resolves
    // against the script's own src: {base_url} is wherever tracker.js came from, prefix included.
    // Started inside a promise: a fetch that throws at once (a page's own wrapper) is caught too.
    // A non-JSON answer lands in catch, logged like a network error.
    const post = (path: string, body: object, keepalive?: boolean): Promise<Answer> =>
      start
        .then(() => fetch(new URL('api/v1/track/' + path, script.src), { method: 'POST', body: JSON.stringify(body), keepalive }))
        .then((r: any) => r.json().then((json: any) => (r.ok ? json : log('error', path, r.status, (json.error || json).message))))
        .catch((e) => log('error', path, e))

    // The click starts a microtask later, so init calls made right after the script (queued
    // or inline) apply to it, and a signup queued on `ready` carries its click id.
    // `existing` is a parameter only to spare a declaration (the budget): start resolves to nothing.
    const ready = start.then<unknown>(
      (existing?: any) => (
        (existing = read()),
        !off &&
          // data-svc-params (docs/imports.md): the parameters old links carry (`via`, `ref`…), comma-separated; `aff` unless said.
          (script.dataset.svcParams || 'aff').split(',').some((n) => RegExp('[?&]' + n.trim() + '=[^&]').test(L.search)) &&
          post('click', { affiliate_url: L.href, click_id: existing }).then((res) => {
            const id = !off && res?.click_id
            // First click wins: the server repeats a known id and the cookie keeps its expiry.
            if (!id || id == existing) return
            put(id, Math.min(res!.cookie_window_days, 400) * 86400)
            read() == id ? log('info', 'click', id) : log('warn', 'cookies blocked')
          })
      ),
    )
    const api: SvcApi = {
      getClickId: () => read() || null,
      init(o) {
        Object.assign(opts, o)
      },
      signup: (customerId, email) =>
        ready.then(() => (off ? null : post('lead', { click_id: read(), customer_key: customerId, email }, true))),
      // Once refused, final: start resolves once, and the click and signups it lets through check `off`.
      consent(granted) {
        granted || (put('', 0), (off = 1))
        allow()
      },
    }
    w.svc = api
    // apply takes the stub's `arguments` objects as they are, and anything not array-like as no arguments.
    prev.q?.map(([m, a]) => (api as any)[m].apply(api, a))
  } catch (e) {
    log('error', e)
  }
})(window, document, location)
