// The emulator's own addresses, and what keeps it from calling itself. A URL it is given to call (a
// callback, an observability destination, the upstream) is compared with its listeners three ways:
// by its literal host (every spelling of loopback, the bound host, the allowed host names), by every
// address its host name resolves to when it is given (a name in /etc/hosts, the machine's own name),
// and by the connection itself, whose `lookup` refuses those addresses, so a name that resolved
// elsewhere when it was checked cannot rebind to the emulator by the time it is called.
//
// Only URLs on a port of one of the listeners are resolved: no other port can reach the emulator, so
// every other URL costs nothing. Resolution is bounded in time (a slow resolver answers an error, not
// a wait), and few run at once: the system resolver blocks a thread of libuv's small pool, which file
// and compression work share.
import { lookup as systemLookup, type LookupAddress } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import { networkInterfaces } from 'node:os'
import { ConfigError, type EmulatorConfig } from '../config.ts'

/** How a host name becomes addresses: the system's resolver (`dns.lookup`, /etc/hosts first), or a test's. */
export type Resolver = (host: string) => Promise<LookupAddress[]>

/** A resolution taking longer is answered as an error: a slow resolver never holds a request longer. */
export const RESOLVE_TIMEOUT_MS = 3_000
/** Resolutions under way at once; more wait their turn (within their time). libuv's pool has 4 threads. */
export const MAX_RESOLVING = 2

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::'])
/** Names every resolver answers with loopback (RFC 6761 reserves `localhost` and names under it). */
const isLoopbackName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost')

/** The system resolver, every address of every family, in its own order. */
const resolveWithSystem: Resolver = (host) =>
  new Promise((resolve, reject) => systemLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))))

/** A host name resolved too slowly to be checked. */
export class ResolveTimeoutError extends Error {
  readonly code = 'ETIMEOUT'
  readonly host: string
  constructor(host: string) {
    super(`could not resolve ${host} within ${RESOLVE_TIMEOUT_MS} ms`)
    this.host = host
  }
}

/** A connection refused before it was made: its host name resolves to an address of the emulator's own. */
export class OwnAddressError extends Error {
  readonly code = 'EOWNADDRESS'
  readonly host: string
  readonly address: string
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, an address of the emulator itself: it would call itself`)
    this.host = host
    this.address = address
  }
}

const portOf = (url: URL): number => (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port))

/** A URL's host as the resolver takes it: without IPv6 brackets, lowercase. */
const hostOf = (url: URL): string => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')

/** A host or address as compared: without a zone (`fe80::1%eth0`) or the root's trailing dot (`localhost.`). */
function bareHost(host: string): string {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return (bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare).replace(/\.$/, '')
}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`, the old `::127.0.0.1`), as IPv4; else the address. */
function unmapped(address: string): string {
  const dotted = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (dotted) return dotted[1]!
  const hex = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address)
  if (!hex) return address
  const hi = Number.parseInt(hex[1]!, 16)
  const lo = Number.parseInt(hex[2]!, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/** Loopback (127/8, ::1), or "this host" (0.0.0.0/8, ::), which a connection takes to a local listener. */
const isLocal = (address: string): boolean => /^(?:127|0)\.\d+\.\d+\.\d+$/.test(address) || address === '::1' || address === '::'

/**
 * The emulator's own addresses: every listener's port (known once it listens), on a loopback address
 * or name, the bound host, an allowed host name, or, bound to every interface, any of the machine's
 * addresses. A URL on one of them would make the emulator call itself.
 */
export class OwnAddresses {
  private readonly ports = new Set<number>()
  /** The bound host and the allowed host names, as a URL names them. */
  private readonly names: Set<string>
  private readonly boundHost: string
  private readonly resolver: Resolver
  /** The bound host's addresses, when it is a name (resolved once, when first needed). */
  private boundAddresses: Promise<string[]> | null = null
  private resolving = 0
  private readonly waiting: Array<() => void> = []

  constructor(config: Pick<EmulatorConfig, 'host' | 'allowedHosts'>, resolver: Resolver = resolveWithSystem) {
    this.boundHost = bareHost(config.host)
    this.names = new Set([this.boundHost, ...config.allowedHosts.map(bareHost)])
    this.resolver = resolver
  }

  /** A listener's port, once it listens. */
  add(port: number): void {
    this.ports.add(port)
  }

  /** Whether the URL's port is one of a listener's: no other can reach the emulator. */
  private onOwnPort(url: URL): boolean {
    return this.ports.has(portOf(url))
  }

  /** Whether an address (not a name) is one the emulator listens on, whatever the port. */
  private isOwnAddress(address: string, bound: readonly string[]): boolean {
    const ip = unmapped(bareHost(address))
    if (isLocal(ip) || ip === this.boundHost || bound.includes(ip)) return true
    if (!WILDCARD_HOSTS.has(this.boundHost)) return false
    // Bound to every interface: any address of this machine, as it is now.
    return Object.values(networkInterfaces()).some((list) => list?.some((nic) => unmapped(bareHost(nic.address)) === ip))
  }

  /** Whether the URL names the emulator by its literal host: an address, a loopback name, the bound host or an allowed name. */
  includes(url: URL): boolean {
    if (!this.onOwnPort(url)) return false
    const host = bareHost(url.hostname)
    return this.names.has(host) || isLoopbackName(host) || (isIP(host) !== 0 && this.isOwnAddress(host, []))
  }

  /**
   * The address of the emulator's own that the URL reaches, resolving its host name: the host itself
   * when its literal names the emulator, an address its name resolves to, or null. A name that does
   * not resolve is null (there is nothing to call); one that takes too long throws ResolveTimeoutError.
   */
  async ownAddressOf(url: URL): Promise<string | null> {
    if (!this.onOwnPort(url)) return null
    if (this.includes(url)) return bareHost(url.hostname)
    const host = hostOf(url)
    if (isIP(host) !== 0) return null
    let addresses: LookupAddress[]
    try {
      addresses = await this.resolve(host)
    } catch (error) {
      if (error instanceof ResolveTimeoutError) throw error
      return null
    }
    return await this.ownAmong(addresses)
  }

  /**
   * What is wrong with calling this URL once its host name is resolved, as a field's issue (the literal
   * check comes first, in each area's own words), or null when nothing is.
   */
  async resolvedIssue(url: URL): Promise<string | null> {
    try {
      const own = await this.ownAddressOf(url)
      if (own === null) return null
      const named = this.includes(url) ? url.host : `${url.host}, which resolves to ${own}`
      return `must not point at the emulator itself (${named}): give the address of your own receiver`
    } catch (error) {
      if (!(error instanceof ResolveTimeoutError)) throw error
      return `could not be resolved within ${RESOLVE_TIMEOUT_MS} ms to check that it is not the emulator itself (${url.hostname}): give a host that resolves, or its address`
    }
  }

  /**
   * The `lookup` of an outgoing request to this URL (node:http and node:https take it): it resolves the
   * host as Node's own would, within the time bound, and refuses (with OwnAddressError, before any
   * connection is made) when any address is the emulator's own. Undefined, Node's own lookup, when the
   * URL's port is no listener's. A literal address is never looked up: check `includes` first.
   */
  lookupFor(url: URL): LookupFunction | undefined {
    if (!this.onOwnPort(url)) return undefined
    const lookUp = async (hostname: string, family: number): Promise<LookupAddress[]> => {
      const addresses = await this.resolve(hostname)
      const own = await this.ownAmong(addresses)
      if (own !== null) throw new OwnAddressError(hostname, own)
      const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family)
      if (usable.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname })
      return usable
    }
    return (hostname, options, answer) => {
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0)
      // Answered once, either way, as node:net asks: every address, or the first.
      void lookUp(hostname, family).then(
        (usable) => (options.all ? answer(null, usable) : answer(null, usable[0]!.address, usable[0]!.family)),
        (error: unknown) => answer(error as NodeJS.ErrnoException, ''),
      )
    }
  }

  /** The first of the addresses that is the emulator's own, or null. */
  private async ownAmong(addresses: readonly LookupAddress[]): Promise<string | null> {
    const bound = await this.boundHostAddresses()
    return addresses.find((a) => this.isOwnAddress(a.address, bound))?.address ?? null
  }

  /** The bound host's addresses when it is a name (an address or a wildcard needs none). */
  private boundHostAddresses(): Promise<string[]> {
    if (isIP(this.boundHost) !== 0 || isLoopbackName(this.boundHost)) return Promise.resolve([])
    this.boundAddresses ??= this.resolve(this.boundHost).then(
      (addresses) => addresses.map((a) => unmapped(bareHost(a.address))),
      // Not resolved now: asked again next time.
      () => {
        this.boundAddresses = null
        return []
      },
    )
    return this.boundAddresses
  }

  /** The host's addresses, within RESOLVE_TIMEOUT_MS (waiting for a turn included), at most MAX_RESOLVING at once. */
  private resolve(host: string): Promise<LookupAddress[]> {
    if (isIP(host) !== 0) return Promise.resolve([{ address: host, family: isIP(host) }])
    return new Promise((resolve, reject) => {
      let settled = false
      const settle = (done: () => void): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        done()
      }
      const run = (): void => {
        this.resolving++
        void Promise.resolve()
          .then(() => this.resolver(host))
          .then(
            (addresses) => settle(() => resolve(addresses)),
            (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
          )
          // The turn is given back when the resolver answers, not at the timeout: its thread is busy until then.
          .finally(() => {
            this.resolving--
            this.waiting.shift()?.()
          })
      }
      const timer = setTimeout(() => {
        const queued = this.waiting.indexOf(run)
        if (queued >= 0) this.waiting.splice(queued, 1)
        settle(() => reject(new ResolveTimeoutError(host)))
      }, RESOLVE_TIMEOUT_MS)
      timer.unref()
      if (this.resolving < MAX_RESOLVING) run()
      else this.waiting.push(run)
    })
  }
}

/**
 * The upstream gateway (--upstream), checked once the emulator listens: on one of its own listeners, by
 * any name, every request no recording answers would be proxied back to itself. A resolver too slow to
 * tell is a warning (each upstream request is checked again by its connection's lookup).
 */
export async function checkUpstream(own: OwnAddresses, upstream: string, warn: (message: string) => void): Promise<void> {
  const url = new URL(upstream)
  let address: string | null
  try {
    address = await own.ownAddressOf(url)
  } catch (error) {
    if (!(error instanceof ResolveTimeoutError)) throw error
    warn(`--upstream ${upstream}: ${error.message}; each upstream request is checked again as it is made`)
    return
  }
  if (address === null) return
  const named = own.includes(url) ? url.host : `${url.host}, which resolves to ${address}`
  throw new ConfigError(
    `invalid --upstream ${JSON.stringify(upstream)}: it is this emulator itself (${named}), which would proxy every request no recording answers back to itself: give the real gateway's URL`,
  )
}
