// Public API of the emulator package: build it in-process for tests, or start it listening.
export { createEmulator, startEmulator, type Emulator, type EmulatorOptions, type RunningEmulator } from './emulator.ts'
export { VERSION } from './config.ts'
export { loadConfig, defaultConfig, type EmulatorConfig } from './config.ts'
export { parseDuration, type Clock, type ClockMode, type ClockState } from './core/clock.ts'
export type { SeededKeys } from './store/seed.ts'
// The admin API's request and answer shapes, for scripts and tools that call it.
export type * from './admin/types.ts'
