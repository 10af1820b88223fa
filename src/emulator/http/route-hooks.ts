// Hooks attached to the routes that need them (from an onRoute hook), with the route's config read
// once at registration: a global hook runs on every request, and reading request.routeOptions builds
// a new object each time, which showed in the profile of the lightest routes.
import type {
  onRequestHookHandler,
  onResponseHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
  preParsingHookHandler,
  preValidationAsyncHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify'

interface RouteHooks {
  onRequest: onRequestHookHandler
  preParsing: preParsingHookHandler
  preValidation: preValidationAsyncHookHandler
  preHandler: preHandlerHookHandler
  onSend: onSendHookHandler
  onResponse: onResponseHookHandler
}

/**
 * Runs `hook` on this route after the hooks it declares itself (and after every global hook); with
 * `first`, before the hooks the route declares or other onRoute hooks added.
 */
export function addRouteHook<Name extends keyof RouteHooks>(route: RouteOptions, name: Name, hook: RouteHooks[Name], first?: boolean): void
/** A preValidation hook that calls `done` (no promise when it has nothing to wait for). */
export function addRouteHook(route: RouteOptions, name: 'preValidation', hook: preValidationHookHandler): void
export function addRouteHook(route: RouteOptions, name: keyof RouteHooks, hook: unknown, first = false): void {
  const existing: unknown = route[name]
  const list: unknown[] = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]
  ;(route as unknown as Record<keyof RouteHooks, unknown>)[name] = first ? [hook, ...list] : [...list, hook]
}

/** Methods whose requests carry a body, which arrives after the onRequest hooks have run. */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
