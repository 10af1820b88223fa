// The EU listener hands its requests to the main app, marked so that routes know where they came in.
import type { IncomingMessage, Server, ServerOptions } from 'node:http'
import { networkInterfaces } from 'node:os'
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

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]'])
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1', '0.0.0.0', '[::]'])

/** An IPv4 address written as IPv6 (`[::ffff:7f00:1]`, as the URL parser spells `[::ffff:127.0.0.1]`), as IPv4. */
function mappedIpv4(host: string): string | null {
  const match = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host)
  if (!match) return null
  const hi = Number.parseInt(match[1]!, 16)
  const lo = Number.parseInt(match[2]!, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/**
 * The emulator's own addresses, as a callback URL could name them: every listener's port (known once
 * it listens), on a loopback name, the bound host, or, bound to every interface, any of the machine's
 * addresses. A callback to one of them would make the emulator call itself.
 */
export class OwnAddresses {
  private readonly ports = new Set<number>()
  private readonly hosts: Set<string>

  constructor(config: Pick<EmulatorConfig, 'host' | 'allowedHosts'>) {
    const host = config.host.toLowerCase()
    this.hosts = new Set([
      ...LOOPBACK_HOSTS,
      host,
      host.includes(':') && !host.startsWith('[') ? `[${host}]` : host,
      ...config.allowedHosts.map((h) => h.toLowerCase()),
    ])
    if (WILDCARD_HOSTS.has(host)) {
      for (const addresses of Object.values(networkInterfaces())) {
        for (const address of addresses ?? []) this.hosts.add(address.family === 'IPv6' ? `[${address.address.toLowerCase()}]` : address.address)
      }
    }
  }

  /** A listener's port, once it listens. */
  add(port: number): void {
    this.ports.add(port)
  }

  includes(url: URL): boolean {
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port)
    if (!this.ports.has(port)) return false
    const host = url.hostname.toLowerCase()
    const ipv4 = mappedIpv4(host) ?? host
    return this.hosts.has(host) || this.hosts.has(ipv4) || /^127\.\d+\.\d+\.\d+$/.test(ipv4)
  }
}
