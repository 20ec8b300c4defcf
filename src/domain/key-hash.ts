/**
 * Two independent 32-bit hashes of a key in one pass (FNV-1a and a multiplicative mix, both
 * seeded), for the fixed tables that count per client without keeping its key (the rate limiter,
 * the click counts): `out[0]` picks the slot, its bits well mixed (murmur3's finaliser) so that
 * similar keys spread over the table; `out[1]` is the fingerprint stored in it, never 0 (0 marks
 * a slot never used). Written into `out`, so that a request allocates nothing.
 */
export function hashKey(key: string, seed0: number, seed1: number, out: Uint32Array): void {
  let h1 = 0x811c9dc5 ^ seed0
  let h2 = seed1 | 1
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 0x01000193)
    h2 = Math.imul(h2 + c, 0x5bd1e995) ^ (h2 >>> 15)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b)
  h1 = Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35)
  h1 ^= h1 >>> 16
  out[0] = h1
  out[1] = h2 >>> 0 || 1
}
