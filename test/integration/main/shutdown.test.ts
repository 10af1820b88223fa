// The app's way out: windows, then the emulator, then quit; once; never stuck.
import { describe, expect, it } from 'vitest'
import { createShutdown, type ShutdownSteps } from '../../../src/main/shutdown.ts'
import { startEmulator } from '../../../src/emulator/index.ts'

function recorder(overrides: Partial<ShutdownSteps> = {}) {
  const calls: string[] = []
  const problems: string[] = []
  const steps: ShutdownSteps = {
    closeWindows: () => void calls.push('windows'),
    closeEmulator: async () => {
      calls.push('emulator:start')
      // Finishes on a later turn of the event loop, as a real close does: quit must wait for it.
      await new Promise((resolve) => setImmediate(resolve))
      calls.push('emulator:done')
    },
    quit: () => void calls.push('quit'),
    onProblem: (message) => void problems.push(message),
    timeoutMs: 200,
    ...overrides,
  }
  return { calls, problems, shutdown: createShutdown(steps) }
}

describe('shutdown', () => {
  it('closes the windows, then the emulator, then quits', async () => {
    const { calls, problems, shutdown } = recorder()
    expect(await shutdown()).toEqual({ timedOut: false, errors: [] })
    expect(calls).toEqual(['windows', 'emulator:start', 'emulator:done', 'quit'])
    expect(problems).toEqual([])
  })

  it('runs once: later calls wait for the first', async () => {
    const { calls, shutdown } = recorder()
    const first = shutdown()
    const second = shutdown()
    expect(second).toBe(first)
    await Promise.all([first, second, shutdown()])
    expect(await shutdown()).toBe(await first)
    expect(calls).toEqual(['windows', 'emulator:start', 'emulator:done', 'quit'])
  })

  it('quits anyway when the emulator does not close in time', async () => {
    const { calls, problems, shutdown } = recorder({
      timeoutMs: 30,
      closeEmulator: () => new Promise<void>(() => calls.push('emulator:stuck')),
    })
    const started = Date.now()
    const result = await shutdown()
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(result.timedOut).toBe(true)
    expect(calls).toEqual(['windows', 'emulator:stuck', 'quit'])
    expect(problems).toEqual(['closing the emulator did not finish within 30 ms; quitting anyway'])
  })

  it('quits anyway when a step fails, even synchronously', async () => {
    const { calls, problems, shutdown } = recorder({
      closeWindows: () => {
        throw new Error('window gone')
      },
      closeEmulator: () => Promise.reject(new Error('database busy')),
    })
    const result = await shutdown()
    expect(calls).toEqual(['quit'])
    expect(result).toEqual({ timedOut: false, errors: ['closing the windows failed: window gone', 'closing the emulator failed: database busy'] })
    expect(problems).toEqual(result.errors)
  })

  it('closes a real emulator: its port is free and its database closed before quit', async () => {
    const emulator = await startEmulator({ db: ':memory:', logLevel: 'silent', euPort: -1 })
    const calls: string[] = []
    const shutdown = createShutdown({
      closeWindows: () => void calls.push('windows'),
      closeEmulator: () => emulator.close(),
      quit: () => {
        calls.push(`quit: db open ${emulator.ctx.db.open}, listening ${emulator.app.server.listening}`)
      },
    })
    await shutdown()
    expect(calls).toEqual(['windows', 'quit: db open false, listening false'])
    await expect(fetch(`${emulator.url}/_emulator/api/health`)).rejects.toThrow()
  })
})
