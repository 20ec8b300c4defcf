/**
 * fast-check's options for every property test: a fixed seed, so that a run is the same run on
 * every machine and a failure replays exactly; SVC_PROPERTY_SEED explores other sequences
 * (fast-check names the seed and path of a failure to pass back).
 */
export const PROPERTY_SEED = Number(process.env.SVC_PROPERTY_SEED ?? 20_260_601)

/** `options` with the seed. */
export const seeded = <T extends object>(options: T): T & { seed: number } => ({ seed: PROPERTY_SEED, ...options })
