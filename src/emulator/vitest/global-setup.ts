// The plugin's global setup: one emulator for the run, its URL provided to the test files. Several
// projects that each carry the plugin share the first one's emulator (a run-wide count on globalThis:
// vitest may load this file once per project), and the last teardown closes it.
import type { TestProject } from 'vitest/node'
import { startTestEmulator, type TestEmulator } from '../testing.ts'
import { emulatorOptionsFor, URL_KEY } from './index.ts'

const RUN = Symbol.for('model-gateway-emulator.vitest.run')
interface SharedRun {
  emulator: Promise<TestEmulator>
  users: number
}
type RunHolder = { [RUN]?: SharedRun }

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as RunHolder
  const run = (holder[RUN] ??= { emulator: startTestEmulator(emulatorOptionsFor(project)), users: 0 })
  run.users++
  let emulator: TestEmulator
  try {
    emulator = await run.emulator
  } catch (error) {
    if (--run.users === 0) delete holder[RUN]
    throw error
  }
  project.provide(URL_KEY, emulator.url)
  return async () => {
    if (--run.users > 0) return
    delete holder[RUN]
    await emulator.close()
  }
}
