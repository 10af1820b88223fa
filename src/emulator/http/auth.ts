// Bearer-key authentication for the gateway and the router. Each route says what it needs in its
// config (`auth`); this hook finds the key by the SHA-256 of the token, checks it, and attaches the
// key and its account to the request. Only the hash is ever compared or recorded.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  keyDisabled,
  keyExpired,
  malformedAuthorization,
  managementKeysOnly,
  noAuthCredentials,
  standardKeysOnly,
  userNotFound,
} from '../modules/keys/keys.errors.ts'
import { sha256Hex } from '../core/rng.ts'
import type { EmulatorContext } from '../modules/module.ts'
import type { AuthContext } from '../modules/caller.ts'
import { addRouteHook, WRITE_METHODS } from './route-hooks.ts'
import { wrongKeyKind } from './http.errors.ts'

export type AuthKind = 'management' | 'standard' | 'any'

export interface AuthRequirement {
  kind: AuthKind
  /** Status when a key of the other kind is used (the spec lists 403 for activity, 401 elsewhere). */
  wrongKindStatus?: 401 | 403
  wrongKindMessage?: string
}

export type { AuthContext }

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Stable operation id, e.g. `keys.list`: used by faults, the journal and the OpenAPI document. */
    operation?: string
    auth?: AuthKind | AuthRequirement
  }
  interface FastifyRequest {
    auth: AuthContext | null
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match ? match[1]! : null
}

/** Tokens seen lately and their hashes: a client sends the same few on every request. */
const tokenHashes = new Map<string, string>()
const TOKEN_HASHES_KEPT = 1024

/** The SHA-256 of `token`, computed once per token while it is among the last TOKEN_HASHES_KEPT seen. */
function tokenHash(token: string): string {
  let hash = tokenHashes.get(token)
  if (hash === undefined) {
    hash = sha256Hex(token)
    if (tokenHashes.size >= TOKEN_HASHES_KEPT) tokenHashes.clear()
    tokenHashes.set(token, hash)
  }
  return hash
}

export function authenticate(ctx: EmulatorContext, request: FastifyRequest, requirement: AuthRequirement): AuthContext {
  const token = bearerToken(request)
  if (token === null) {
    throw request.headers.authorization ? malformedAuthorization() : noAuthCredentials()
  }
  const key = ctx.services.keys.byHash(tokenHash(token))
  if (!key) throw userNotFound()
  if (key.disabled) throw keyDisabled()
  if (key.expires_at !== null && key.expires_at <= ctx.clock.now()) throw keyExpired(key.expires_at)
  if (requirement.kind !== 'any' && key.kind !== requirement.kind) {
    // A route may fix its own status (activity: 403) or words; management-only routes follow the setting.
    const status = requirement.wrongKindStatus ?? (requirement.kind === 'management' ? ctx.config.wrongKeyKindStatus : 401)
    if (requirement.wrongKindMessage !== undefined) throw wrongKeyKind(status, requirement.wrongKindMessage)
    throw requirement.kind === 'management' ? managementKeysOnly(status) : standardKeysOnly()
  }
  const account = ctx.services.accounts.get(key.account_id)!
  return { key, account }
}

export function installAuth(app: FastifyInstance, ctx: EmulatorContext): void {
  app.decorateRequest('auth', null)
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth
    if (!auth) return
    const requirement = typeof auth === 'string' ? { kind: auth } : auth
    addRouteHook(route, 'onRequest', (request, _reply, done) => {
      try {
        request.auth = authenticate(ctx, request, requirement)
        done()
      } catch (error) {
        done(error as Error)
      }
    })
    // Authentication runs before the body has arrived. A key revoked meanwhile (or its whole account
    // deleted) is as unknown as at the door, rather than reaching a handler that writes under it.
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.some((method) => WRITE_METHODS.has(method))) return
    addRouteHook(route, 'preHandler', (request, _reply, done) => {
      done(request.auth && !ctx.services.keys.byHash(request.auth.key.hash) ? userNotFound() : undefined)
    })
  })
}

/** The authenticated caller; routes with an `auth` config always have one. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw noAuthCredentials()
  return request.auth
}
