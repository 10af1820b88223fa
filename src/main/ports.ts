// Starts the emulator on the preferred port, or close to it when that port is taken, or on any free
// port as a last resort, and says which one it got and why. No Electron here: tests run it in Node.
import type { EmulatorOptions } from '../emulator/index.ts'

export const PREFERRED_PORT = 8710
/** Ports after the preferred one to try before asking the OS for any free port. */
export const EXTRA_PORTS = 4

export type StartFunction<E> = (options: EmulatorOptions) => Promise<E>

export interface PortChoice<E> {
  emulator: E
  port: number
  /** True when the emulator is not on the preferred port. */
  fellBack: boolean
  /** Why it fell back: the preferred port's listen error, and where it went instead. */
  reason?: string
}

export interface StartOnFreePortOptions {
  preferred?: number
  extraPorts?: number
  /** Everything else the emulator is started with (db, host, logLevel...); `port` is ours. */
  options?: EmulatorOptions
}

/** startEmulator's "port taken" failures (the API port, or the EU port next to it). */
export const isPortInUse = (error: unknown): boolean => error instanceof Error && /already in use/.test(error.message)

// The emulator's message ends with a hint for CLI users ("choose another with --port ..."): not ours.
const withoutCliHint = (message: string): string => message.replace(/\s*\(choose another[^)]*\)\s*$/, '')

export async function startOnFreePort<E extends { port: number }>(
  start: StartFunction<E>,
  { preferred = PREFERRED_PORT, extraPorts = EXTRA_PORTS, options = {} }: StartOnFreePortOptions = {},
): Promise<PortChoice<E>> {
  const candidates = [...Array.from({ length: extraPorts + 1 }, (_, i) => preferred + i).filter((p) => p <= 65535), 0]
  let firstFailure: string | null = null
  for (const port of candidates) {
    try {
      const emulator = await start({ ...options, port })
      if (firstFailure === null) return { emulator, port: emulator.port, fellBack: false }
      const tried = extraPorts > 0 ? `ports ${preferred}–${preferred + extraPorts} were all taken` : `port ${preferred} was taken`
      const where = port === 0 ? `${tried}, so the system chose port ${emulator.port}` : `using port ${emulator.port} instead`
      return { emulator, port: emulator.port, fellBack: true, reason: `${firstFailure}; ${where}` }
    } catch (error) {
      // Only a taken port is worth another try: a bad database path fails the same on every port.
      if (!isPortInUse(error) || port === 0) throw error
      firstFailure ??= withoutCliHint((error as Error).message)
    }
  }
  throw new Error('unreachable: port 0 either starts or throws')
}
