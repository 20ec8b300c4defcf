import { type Actor, keyActor } from '../../domain/audit.ts'
import type { KeyMatch } from '../../db/credentials.ts'
import type { Deps } from '../deps.ts'
import { HttpError } from './envelope.ts'
import { auth } from '../../domain/messages.ts'
import { stateOf } from './request-state.ts'

export type Bearer = { kind: 'absent' } | { kind: 'empty' } | { kind: 'token'; token: string } | { kind: 'oversized' }

/** Longer Authorization headers are refused unread (docs/decisions.md, Hostile input); ours are under 100 characters. */
export const AUTHORIZATION_LIMIT = 1024

const isSpace = (code: number) => code === 32 || code === 9

/**
 * Reads `Authorization: Bearer <token>`; a header not starting with Bearer counts as absent, and
 * one over AUTHORIZATION_LIMIT is `oversized`, which every route treats as a token that matches
 * nothing. Read by hand, not by a regular expression: the header is anyone's to write.
 */
export function readBearer(request: Request): Bearer {
  const header = request.headers.get('authorization')
  if (header === null || header.length < 6) return { kind: 'absent' }
  if (header.length > AUTHORIZATION_LIMIT) return { kind: 'oversized' }
  if (header.slice(0, 6).toLowerCase() !== 'bearer') return { kind: 'absent' }
  if (header.length > 6 && !isSpace(header.charCodeAt(6))) return { kind: 'absent' }
  const token = header.slice(6).trim()
  return token ? { kind: 'token', token } : { kind: 'empty' }
}

/** The 401 texts of each route family (docs/errors.md, 401 authentication errors; CLI errors). */
type Profile = 'sale' | 'refund' | 'readiness' | 'cli' | 'lead'
const unauthorized = (profile: Profile, kind: 'absent' | 'empty' | 'invalid'): HttpError => {
  if (profile === 'readiness') {
    const message = { absent: auth.readinessMalformed, empty: auth.readinessMissing, invalid: auth.readinessInvalid }[kind]
    return new HttpError(401, message, { typed: true, code: 'invalid_key' })
  }
  if (profile === 'cli') return new HttpError(401, { absent: auth.cliMalformed, empty: auth.cliMissing, invalid: auth.cliInvalidKey }[kind])
  if (profile === 'refund' && kind === 'empty') return new HttpError(401, auth.invalidToken)
  return new HttpError(401, { absent: auth.malformedHeader, empty: auth.missingToken, invalid: auth.invalidToken }[kind])
}

/**
 * Resolves a program API key for one request, applying key rotation (docs/api.md, Authentication):
 * before the deadline the response gains Deprecation/Sunset/Link headers and a `warnings` entry;
 * after it the key is retired and answers the typed 401 api_key_rotation_required.
 */
export function programKey(deps: Deps, request: Request, token: string, profile: Profile): KeyMatch {
  const match = findKeyOnce(deps, request, token)
  if (!match) throw unauthorized(profile, 'invalid')
  return unlessRetired(deps, request, match, profile)
}

/**
 * deps.findKey for this request's token, looked up at most once per request: the rate limiter
 * (app.ts) recognises the key before the route checks it.
 */
export function findKeyOnce(deps: Deps, request: Request, token: string): KeyMatch | null {
  const state = stateOf(request)
  if (state.key === undefined) state.key = deps.findKey(token)
  return state.key
}

/** The key, its rotation noted on the answer; the typed 401 when it is retired. */
function unlessRetired(deps: Deps, request: Request, match: KeyMatch, profile: Profile): KeyMatch {
  if (noteRotation(deps, request, match) === 'retired') {
    const message = profile === 'cli' ? auth.rotationRequired : auth.rotationRetired
    throw new HttpError(401, message, {
      typed: true,
      code: 'api_key_rotation_required',
      extra: { hint: auth.rotationHint, docs_url: rotationDocsUrl(deps) },
    })
  }
  return match
}

const rotationDocsUrl = (deps: Deps) => `${deps.config.docsUrl}#api_key_rotation_required`

/**
 * A key due for rotation puts Deprecation, Sunset and Link and the `warnings` entry on the
 * request's answer, whatever it is (a 429 included); a retired one is reported for the caller
 * to refuse.
 */
export function noteRotation(deps: Deps, request: Request, match: KeyMatch): 'none' | 'warned' | 'retired' {
  const { rotateBy, rotationMarkedAt } = match.key
  if (rotateBy === null || rotationMarkedAt === null) return 'none'
  if (deps.clock.now() >= rotateBy) return 'retired'
  const docsUrl = rotationDocsUrl(deps)
  const state = stateOf(request)
  state.headers.Deprecation = `@${Math.floor(rotationMarkedAt / 1000)}`
  state.headers.Sunset = new Date(rotateBy).toUTCString()
  state.headers.Link = `<${docsUrl}>; rel="deprecation"`
  state.warnings = [
    {
      code: 'api_key_rotation_required',
      message: auth.rotationWarning,
      hint: auth.rotationHint,
      rotate_by: new Date(rotateBy).toISOString(),
      docs_url: docsUrl,
    },
  ]
  return 'warned'
}

/** A required program key: 401 in the profile's words when absent, empty or unknown. */
export function requireProgramKey(deps: Deps, request: Request, profile: Exclude<Profile, 'lead'>): KeyMatch {
  const bearer = readBearer(request)
  if (bearer.kind === 'oversized') throw unauthorized(profile, 'invalid')
  if (bearer.kind !== 'token') throw unauthorized(profile, bearer.kind)
  return programKey(deps, request, bearer.token, profile)
}

/**
 * A required program key of scope `manage` (domain/key-scope.ts): the CLI's routes that change or
 * read more than tracking (webhooks, review, test events). A `track` key answers 403
 * `This key can only track`.
 */
export function requireManageKey(deps: Deps, request: Request): KeyMatch {
  const match = requireProgramKey(deps, request, 'cli')
  if (match.key.scope !== 'manage') throw new HttpError(403, auth.trackOnly)
  return match
}

/** An optional key (lead, click): null in browser mode (absent or empty token); 401 when unknown. */
export function optionalProgramKey(deps: Deps, request: Request): KeyMatch | null {
  const bearer = readBearer(request)
  if (bearer.kind === 'oversized') throw unauthorized('lead', 'invalid')
  return bearer.kind === 'token' ? programKey(deps, request, bearer.token, 'lead') : null
}

/**
 * Click: no key is needed and an unknown one is ignored (docs/api.md: Bearer optional, only for the
 * test-mode program check), but a known key's rotation applies as on every route ("every
 * request with it"): the rotation headers and `warnings`, or the retired key's typed 401.
 */
export function knownProgramKey(deps: Deps, request: Request): KeyMatch | null {
  const bearer = readBearer(request)
  const match = bearer.kind === 'token' ? findKeyOnce(deps, request, bearer.token) : null
  return match && unlessRetired(deps, request, match, 'lead')
}

/** A program key as an audit actor (docs/decisions.md, Teams and the audit log): `key:<key id>:<scope>`, from the request's IP. */
export function keyActorOf(match: KeyMatch, request: Request): Actor {
  return { actor: keyActor(match.key.id, match.key.scope), ip: stateOf(request).ip }
}
