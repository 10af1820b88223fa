// The desktop app starts the emulator on 8710, or near it, or anywhere, and says which and why.
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startEmulator, type EmulatorOptions } from '../../../src/emulator/index.ts'
import { isPortInUse, startOnFreePort } from '../../../src/main/ports.ts'

/** Holds a port on 127.0.0.1, the emulator's host, until the test ends. */
async function blockPort(port = 0): Promise<number> {
  const server: Server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return (server.address() as AddressInfo).port
}

const quiet: EmulatorOptions = { db: ':memory:', logLevel: 'silent', euPort: -1 }

describe('startOnFreePort with the real emulator', () => {
  it('takes the preferred port when it is free', async () => {
    // A port the OS just handed out and took back: nothing else should grab it in between.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))

    const choice = await startOnFreePort(startEmulator, { preferred: port, options: quiet })
    onTestFinished(() => choice.emulator.close())
    expect(choice).toMatchObject({ port, fellBack: false })
    expect(choice.reason).toBeUndefined()
    expect(choice.emulator.url).toBe(`http://127.0.0.1:${port}`)
  })

  it('moves to another port when the preferred one is taken, and says why', async () => {
    const taken = await blockPort()
    const choice = await startOnFreePort(startEmulator, { preferred: taken, options: quiet })
    onTestFinished(() => choice.emulator.close())
    expect(choice.fellBack).toBe(true)
    expect(choice.port).not.toBe(taken)
    expect(choice.port).toBe(choice.emulator.port)
    expect(choice.reason).toContain(`port ${taken} on 127.0.0.1 is already in use`)
    expect(choice.reason).not.toContain('--port') // the CLI's hint means nothing in the app
    // And it answers there.
    const health = await fetch(`${choice.emulator.url}/_emulator/api/health`)
    expect(health.status).toBe(200)
  })

  it('falls back to any free port when the preferred one and the next ones are all taken', async () => {
    const taken = await blockPort()
    const choice = await startOnFreePort(startEmulator, { preferred: taken, extraPorts: 0, options: quiet })
    onTestFinished(() => choice.emulator.close())
    expect(choice.fellBack).toBe(true)
    expect(choice.port).not.toBe(taken)
    expect(choice.reason).toContain(`port ${taken} was taken, so the system chose port ${choice.port}`)
  })

  it('does not retry an error that is not a taken port', async () => {
    let calls = 0
    const counted = (options: EmulatorOptions) => {
      calls++
      return startEmulator(options)
    }
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: no port would help.
    await expect(startOnFreePort(counted, { preferred: 8710, options: { ...quiet, host: '192.0.2.1' } })).rejects.toThrow('cannot bind 192.0.2.1')
    expect(calls).toBe(1)
  })
})

describe('startOnFreePort with a fake start', () => {
  const busy = (port: number) => new Error(`API port ${port} on 127.0.0.1 is already in use (choose another with --port, or --port 0 for any free port)`)

  it('tries the preferred port, the next few, then port 0, in that order', async () => {
    const tried: (number | undefined)[] = []
    const choice = await startOnFreePort(
      async (options) => {
        tried.push(options.port)
        if (options.port !== 0) throw busy(options.port!)
        return { port: 54321 }
      },
      { preferred: 8710, extraPorts: 3, options: { db: 'x.db' } },
    )
    expect(tried).toEqual([8710, 8711, 8712, 8713, 0])
    expect(choice).toEqual({
      emulator: { port: 54321 },
      port: 54321,
      fellBack: true,
      reason: 'API port 8710 on 127.0.0.1 is already in use; ports 8710–8713 were all taken, so the system chose port 54321',
    })
  })

  it('passes the other options through and stops at the first port that works', async () => {
    const seen: EmulatorOptions[] = []
    const choice = await startOnFreePort(
      async (options) => {
        seen.push(options)
        if (options.port === 8710) throw new Error('EU port 8711 on 127.0.0.1 is already in use (choose another with --port, or --port 0 for any free port)')
        return { port: options.port! }
      },
      { preferred: 8710, options: { db: '/data/emulator.db', logLevel: 'warn' } },
    )
    expect(seen).toEqual([
      { db: '/data/emulator.db', logLevel: 'warn', port: 8710 },
      { db: '/data/emulator.db', logLevel: 'warn', port: 8711 },
    ])
    expect(choice).toMatchObject({ port: 8711, fellBack: true, reason: 'EU port 8711 on 127.0.0.1 is already in use; using port 8711 instead' })
  })

  it('rethrows other errors at once, and a failure on port 0', async () => {
    let calls = 0
    const broken = async (): Promise<{ port: number }> => {
      calls++
      throw new Error('cannot open database')
    }
    await expect(startOnFreePort(broken)).rejects.toThrow('cannot open database')
    expect(calls).toBe(1)
    const alwaysBusy = async (options: EmulatorOptions): Promise<{ port: number }> => {
      throw busy(options.port!)
    }
    await expect(startOnFreePort(alwaysBusy, { extraPorts: 1 })).rejects.toThrow('API port 0')
  })

  it('recognises the emulator’s port-taken errors only', () => {
    expect(isPortInUse(busy(1))).toBe(true)
    expect(isPortInUse(new Error('EACCES'))).toBe(false)
    expect(isPortInUse('already in use')).toBe(false)
  })
})
