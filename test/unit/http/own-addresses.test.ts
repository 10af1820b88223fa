// The emulator's own addresses (http/own-addresses.ts), with resolvers injected: a URL is compared by
// its literal host, by every address its name resolves to, and by the `lookup` its connection uses, so a
// name that resolves elsewhere when checked and to the emulator when called is refused at the call.
import type { LookupAddress } from 'node:dns'
import { networkInterfaces } from 'node:os'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  MAX_RESOLVING,
  OwnAddresses,
  OwnAddressError,
  RESOLVE_TIMEOUT_MS,
  ResolveTimeoutError,
  type Resolver,
} from '../../../src/emulator/http/own-addresses.ts'

const PORT = 4010
const v4 = (address: string): LookupAddress => ({ address, family: 4 })
const v6 = (address: string): LookupAddress => ({ address, family: 6 })

/** A resolver from a table of names; an unknown name is ENOTFOUND, as getaddrinfo answers it. */
function table(names: Record<string, LookupAddress[]>): Resolver & { asked: string[] } {
  const asked: string[] = []
  const resolve = async (host: string) => {
    asked.push(host)
    const found = names[host]
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return found
  }
  return Object.assign(resolve, { asked })
}

function own(resolver: Resolver, host = '127.0.0.1', allowedHosts: string[] = []): OwnAddresses {
  const addresses = new OwnAddresses({ host, allowedHosts }, resolver)
  addresses.add(PORT)
  addresses.add(PORT + 1)
  return addresses
}

/** Runs a lookup as node:net would: `all` for every address (Happy Eyeballs), or one of a family. */
function lookUp(addresses: OwnAddresses, url: string, host: string, options: { all?: boolean; family?: number } = {}) {
  const lookup = addresses.lookupFor(new URL(url))
  if (!lookup) throw new Error('no lookup for this URL')
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: unknown }>((resolve) =>
    lookup(host, options as never, (error: NodeJS.ErrnoException | null, address: unknown, family?: unknown) => resolve({ error, address, family })),
  )
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the literal check', () => {
  it('takes every spelling of loopback, the bound host and the allowed names on a listener port, and nothing on another port', () => {
    const addresses = own(table({}), '127.0.0.1', ['emulator.test'])
    for (const url of [
      'http://127.0.0.1:4010/',
      'http://127.9.9.9:4011/',
      'http://localhost:4010/',
      'http://LOCALHOST.:4010/',
      'http://app.localhost:4010/',
      'http://[::1]:4010/',
      'http://[::ffff:127.0.0.1]:4010/',
      'http://[::ffff:7f00:1]:4010/',
      'http://0.0.0.0:4010/',
      'http://[::]:4010/',
      'http://2130706433:4010/',
      'http://emulator.test:4010/',
    ]) {
      expect(addresses.includes(new URL(url)), url).toBe(true)
    }
    for (const url of ['http://127.0.0.1:4012/', 'http://localhost/', 'https://localhost/', 'http://10.0.0.1:4010/', 'http://example.com:4010/']) {
      expect(addresses.includes(new URL(url)), url).toBe(false)
    }
  })

  it('bound to every interface, takes any address of this machine', () => {
    const addresses = own(table({}), '0.0.0.0')
    const external = Object.values(networkInterfaces())
      .flat()
      .find((nic) => nic && !nic.internal && nic.family === 'IPv4')
    if (external) expect(addresses.includes(new URL(`http://${external.address}:${PORT}/`))).toBe(true)
    expect(addresses.includes(new URL('http://192.0.2.1:4010/'))).toBe(false)
  })
})

describe('the check by resolved addresses', () => {
  it('refuses a name that resolves to loopback, and says which address, by each address family', async () => {
    const addresses = own(table({ 'my-laptop': [v4('127.0.1.1')], 'dual.test': [v4('192.0.2.7'), v6('::1')], 'mapped.test': [v6('::ffff:127.0.0.1')] }))
    expect(await addresses.ownAddressOf(new URL('http://my-laptop:4010/hook'))).toBe('127.0.1.1')
    expect(await addresses.ownAddressOf(new URL('http://dual.test:4011/hook'))).toBe('::1')
    expect(await addresses.ownAddressOf(new URL('http://mapped.test:4010/hook'))).toBe('::ffff:127.0.0.1')
    expect(await addresses.resolvedIssue(new URL('http://my-laptop:4010/hook'))).toBe(
      'must not point at the emulator itself (my-laptop:4010, which resolves to 127.0.1.1): give the address of your own receiver',
    )
  })

  it('takes a name of another address, a name that does not resolve, and any name on another port without resolving it', async () => {
    const resolver = table({ 'hooks.test': [v4('192.0.2.10')], 'my-laptop': [v4('127.0.1.1')] })
    const addresses = own(resolver)
    expect(await addresses.resolvedIssue(new URL('http://hooks.test:4010/'))).toBeNull()
    expect(await addresses.resolvedIssue(new URL('http://nowhere.test:4010/'))).toBeNull()
    expect(resolver.asked).toEqual(['hooks.test', 'nowhere.test'])
    expect(await addresses.resolvedIssue(new URL('http://my-laptop:9999/'))).toBeNull()
    expect(await addresses.resolvedIssue(new URL('https://my-laptop/'))).toBeNull()
    expect(resolver.asked).toHaveLength(2)
  })

  it('refuses the bound host by the addresses its name resolves to', async () => {
    const addresses = own(table({ 'lan-name': [v4('192.0.2.20')], 'alias.test': [v4('192.0.2.20')] }), 'lan-name')
    expect(await addresses.ownAddressOf(new URL('http://alias.test:4010/'))).toBe('192.0.2.20')
    expect(await addresses.ownAddressOf(new URL('http://192.0.2.20:4010/'))).toBeNull() // a literal: `includes` alone reads it
    expect(addresses.includes(new URL('http://lan-name:4010/'))).toBe(true)
  })

  it('answers a resolver that takes too long with a timeout, and then frees its turn once the resolver answers', async () => {
    vi.useFakeTimers()
    const pending: Array<() => void> = []
    const slow: Resolver = (host) =>
      host === 'fast.test' ? Promise.resolve([v4('192.0.2.1')]) : new Promise((resolve) => pending.push(() => resolve([v4('192.0.2.2')])))
    const addresses = own(slow)
    const stuck = Array.from({ length: MAX_RESOLVING }, (_, i) => addresses.ownAddressOf(new URL(`http://slow${i}.test:4010/`)))
    // Every turn is taken: the next one waits, and its wait counts against its time.
    const waiting = addresses.ownAddressOf(new URL('http://fast.test:4010/'))
    const outcomes = Promise.allSettled([...stuck, waiting])
    await vi.advanceTimersByTimeAsync(RESOLVE_TIMEOUT_MS)
    const settled = await outcomes
    for (const outcome of settled) {
      expect(outcome.status).toBe('rejected')
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ResolveTimeoutError)
    }
    // The timed-out resolutions still hold their turns (their threads are busy until the resolver answers).
    const issue = addresses.resolvedIssue(new URL('http://fast.test:4010/'))
    await vi.advanceTimersByTimeAsync(RESOLVE_TIMEOUT_MS)
    expect(await issue).toBe(
      `could not be resolved within ${RESOLVE_TIMEOUT_MS} ms to check that it is not the emulator itself (fast.test): give a host that resolves, or its address`,
    )
    // The resolver answers at last: its turns are free again.
    for (const answer of pending.splice(0)) answer()
    expect(await addresses.ownAddressOf(new URL('http://fast.test:4010/'))).toBeNull()
  })
})

describe('the lookup of a connection', () => {
  it('refuses a name whose resolution changed since it was checked: it resolved elsewhere then, to loopback now', async () => {
    let now: LookupAddress[] = [v4('192.0.2.30')]
    const addresses = own(async () => now)
    const url = 'http://rebind.test:4010/hook'
    expect(await addresses.resolvedIssue(new URL(url))).toBeNull()
    now = [v4('127.0.0.1')]
    const { error } = await lookUp(addresses, url, 'rebind.test', { all: true })
    expect(error).toBeInstanceOf(OwnAddressError)
    expect(error).toMatchObject({ code: 'EOWNADDRESS', host: 'rebind.test', address: '127.0.0.1' })
    expect(error!.message).toBe('rebind.test resolves to 127.0.0.1, an address of the emulator itself: it would call itself')
  })

  it('answers as node:net asks: every address, or the first of the family asked for', async () => {
    const addresses = own(table({ 'hooks.test': [v6('2001:db8::1'), v4('192.0.2.40')] }))
    const url = 'http://hooks.test:4010/'
    expect(await lookUp(addresses, url, 'hooks.test', { all: true })).toMatchObject({ error: null, address: [v6('2001:db8::1'), v4('192.0.2.40')] })
    expect(await lookUp(addresses, url, 'hooks.test', { family: 4 })).toMatchObject({ error: null, address: '192.0.2.40', family: 4 })
    expect(await lookUp(addresses, url, 'hooks.test')).toMatchObject({ error: null, address: '2001:db8::1', family: 6 })
    expect((await lookUp(addresses, url, 'nowhere.test')).error).toMatchObject({ code: 'ENOTFOUND' })
  })

  it('is left to Node on a port no listener has', () => {
    const addresses = own(table({}))
    expect(addresses.lookupFor(new URL('http://hooks.test:8080/'))).toBeUndefined()
    expect(addresses.lookupFor(new URL('https://hooks.test/'))).toBeUndefined()
  })
})
