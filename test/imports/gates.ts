// The test hooks a fake import source puts in front of its pages: a path answers 429 once, and a
// page waits while a test holds it (a crash or a cancel in the middle of an import).

/** A page held by a test: `reached` once the fake has the request, `release` lets it answer. */
export interface Held {
  reached: Promise<void>
  release(): void
}

export function pageGates() {
  const throttled = new Map<string, number>()
  const holds = new Map<string, { reached: () => void; released: Promise<void> }>()
  return {
    /** The next request of `path` answers 429 with Retry-After `seconds`. */
    throttleOnce: (path: string, seconds: number) => void throttled.set(path, seconds),
    /** Holds the request of `path`'s `page` until released. */
    hold(path: string, page: string | number): Held {
      let reached!: () => void
      let release!: () => void
      const reachedP = new Promise<void>((r) => (reached = r))
      const released = new Promise<void>((r) => (release = r))
      holds.set(`${path}#${page}`, { reached, released })
      return {
        reached: reachedP,
        release: () => {
          holds.delete(`${path}#${page}`)
          release()
        },
      }
    },
    /** The Retry-After seconds `path` is to answer 429 with now (once), or undefined. */
    throttled(path: string): number | undefined {
      const wait = throttled.get(path)
      throttled.delete(path)
      return wait
    },
    /** Waits while a test holds `path`'s `page`. */
    async pass(path: string, page: string | number): Promise<void> {
      const hold = holds.get(`${path}#${page}`)
      if (!hold) return
      hold.reached()
      await hold.released
    },
  }
}
