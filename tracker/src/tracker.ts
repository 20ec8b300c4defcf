// The browser tracker served at GET /tracker.js. Budget: 900 bytes gzipped (see
// test/tracker/size.test.ts), so the code favours short constructs over helpers.
import type { SvcApi, SvcInitOptions, SvcStub } from "./api"

type Answer = Record<string, any> | null

;((w: any, d: Document) => {
  try {
    const prev: SvcStub & { getClickId?: unknown } = w.svc || {}
    // A second copy of the script must not send a second click; a stub (it has a queue) is replaced.
    if (prev.getClickId && !prev.q) return
    const NAME = "svc_click_id"
    const script = d.currentScript as HTMLScriptElement
    const opts: SvcInitOptions = { programId: +script.dataset.svcProgramId! || undefined }
    const log = (level: "info" | "warn" | "error", ...args: unknown[]) =>
      (level == "error" || opts.debug) && console[level]("[svc]", ...args)
    const host = location.hostname

    // document.cookie throws in sandboxed frames and is silently ignored when the user
    // blocks cookies; both end as "no cookie", never as an exception.
    const read = (name: string) => {
      try {
        const m = d.cookie.match("(^|; )" + name + "=([^;]*)")
        return m && m[2]
      } catch {
        return null
      }
    }
    // Values go in unencoded: click ids are URL-safe tokens issued by the server.
    const write = (name: string, value: string, maxAge: number, domain?: string) => {
      try {
        d.cookie = name + "=" + value + ";path=/;max-age=" + maxAge +
          ";samesite=lax" + (domain ? ";domain=" + domain : "") +
          (location.protocol == "https:" ? ";secure" : "")
      } catch {}
    }
    // The widest domain the browser accepts, tried from the registrable-looking end
    // inwards. Browsers refuse public suffixes, so no suffix list is shipped; single
    // labels (localhost, a bare TLD) and IP hosts are never tried: host-only cookie.
    const rootDomain = () => {
      const labels = host.split(".")
      for (let i = /^[\d.]+$|:/.test(host) ? -1 : labels.length - 2; i >= 0; i--) {
        const domain = labels.slice(i).join(".")
        write("svc_probe", "1", 9, domain)
        if (read("svc_probe")) return write("svc_probe", "", 0, domain), domain
      }
    }

    // JSON as text/plain keeps the request "simple": no CORS preflight. The URL resolves
    // against the script's own src: {base_url} is wherever tracker.js came from, prefix included.
    // Started inside a promise: a fetch that throws at once (a page's own wrapper) is caught too.
    const post = (path: string, body: object, keepalive?: boolean): Promise<Answer> =>
      Promise.resolve()
        .then(() => fetch(new URL("api/v1/track/" + path, script.src), {
          method: "POST",
          body: JSON.stringify(body),
          keepalive,
        }))
        // A non-JSON answer lands in catch below, logged like a network error.
        .then((r) => r.json().then((json) => (r.ok ? json : (log("error", path, r.status, (json.error || json).message), null))))
        .catch((e) => (log("error", path, e), null))

    const aff = new URLSearchParams(location.search).get("aff")
    const click = () => {
      const existing = read(NAME)
      return post("click", { affiliate_url: location.href, click_id: existing || undefined }).then((res) => {
        // First click wins: the server repeats a known id and the cookie keeps its expiry.
        if (!res || res.click_id == existing) return
        write(NAME, res.click_id, Math.min(res.cookie_window_days, 400) * 86400, opts.cookieDomain || rootDomain())
        read(NAME) == res.click_id ? log("info", "click", res.click_id) : log("warn", "cookies blocked")
      })
    }

    // The click starts a microtask later, so init calls made right after the script (queued
    // or inline) apply to it, and a signup queued on `ready` carries its click id.
    const ready = Promise.resolve().then<unknown>(() => aff && click())
    const api: SvcApi = {
      getClickId: () => read(NAME),
      init(o) {
        Object.assign(opts, o)
      },
      signup: (customerId, email) =>
        ready.then(() => post("lead", { click_id: read(NAME) || undefined, customer_key: customerId, email }, true)),
    }
    w.svc = api
    // apply takes the stub's `arguments` objects as they are, and anything not array-like as no arguments.
    ;(prev.q || []).map(([m, a]) => (api as any)[m].apply(api, a))
  } catch (e) {
    console.error("[svc]", e)
  }
})(window, document)
