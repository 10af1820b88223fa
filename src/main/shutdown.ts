// The desktop app's one way out: close the windows, then the emulator (its HTTP servers, then its
// database), then quit. Called from several events, it runs once; a stuck step cannot keep the app
// alive, because the emulator gets a deadline and quit happens regardless.
export interface ShutdownSteps {
  closeWindows(): void | Promise<void>
  /** Closes the emulator if there is one (it may still be starting, or have failed to start). */
  closeEmulator(): void | Promise<void>
  quit(): void
  /** How long each step (windows, emulator) may take before we go on and quit anyway. */
  timeoutMs?: number
  /** Told about a failed or timed-out step; quitting goes on. */
  onProblem?(message: string): void
}

export interface ShutdownResult {
  timedOut: boolean
  errors: string[]
}

export const SHUTDOWN_TIMEOUT_MS = 5_000

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

type StepOutcome = 'done' | 'timeout' | { error: unknown }

/** Runs a step, but waits for it no longer than `ms`; a throw (even a synchronous one) is an outcome. */
async function runStep(step: () => void | Promise<void>, ms: number): Promise<StepOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms)
  })
  try {
    const work = Promise.resolve()
      .then(step)
      .then(() => 'done' as const)
    return await Promise.race([work, deadline])
  } catch (error) {
    return { error }
  } finally {
    clearTimeout(timer)
  }
}

/** Returns the shutdown function: every call after the first waits for the first one. */
export function createShutdown(steps: ShutdownSteps): () => Promise<ShutdownResult> {
  let running: Promise<ShutdownResult> | null = null
  const timeoutMs = steps.timeoutMs ?? SHUTDOWN_TIMEOUT_MS

  const run = async (): Promise<ShutdownResult> => {
    const result: ShutdownResult = { timedOut: false, errors: [] }
    const check = (what: string, outcome: StepOutcome) => {
      if (outcome === 'done') return
      const message = outcome === 'timeout' ? `${what} did not finish within ${timeoutMs} ms; quitting anyway` : `${what} failed: ${messageOf(outcome.error)}`
      if (outcome === 'timeout') result.timedOut = true
      result.errors.push(message)
      steps.onProblem?.(message)
    }
    // Windows first, so nothing talks to the emulator while it closes; then the emulator, whose close
    // stops its HTTP servers before its database.
    check('closing the windows', await runStep(() => steps.closeWindows(), timeoutMs))
    check('closing the emulator', await runStep(() => steps.closeEmulator(), timeoutMs))
    steps.quit()
    return result
  }

  return () => (running ??= run())
}
