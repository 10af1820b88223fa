// The EU listener hands its requests to the main app, marked so that routes know where they came in.
import type { IncomingMessage, Server, ServerOptions } from 'node:http'
import type { EmulatorConfig } from '../config.ts'

/** Marks a request that arrived on the EU listener. */
export const EU_LISTENER = Symbol.for('model-gateway-emulator.eu')

export function markEu(raw: IncomingMessage): void {
  ;(raw as IncomingMessage & { [EU_LISTENER]?: boolean })[EU_LISTENER] = true
}

export function isEuRequest(raw: IncomingMessage): boolean {
  return (raw as IncomingMessage & { [EU_LISTENER]?: boolean })[EU_LISTENER] === true
}

type ServerLimitsConfig = Pick<EmulatorConfig, 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'>

/**
 * Node's own limits for a listener (both listeners get the same). The header timeout is the request
 * timeout: Node's default (60 s) would otherwise outlast it, and a slow body is only closed by the
 * server's requestTimeout, which Node checks every connectionsCheckingInterval (30 s by default).
 */
export function serverOptions(config: ServerLimitsConfig): ServerOptions {
  return {
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(config.requestTimeoutMs / 4))),
  }
}

/** What can only be set on a server once made. */
export function limitConnections(server: Server, config: ServerLimitsConfig): void {
  server.maxConnections = config.maxConnections
}
