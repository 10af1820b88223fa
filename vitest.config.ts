// Five projects, one command: `npm test` runs them all, `npx vitest run --project unit` (or
// `integration`, `e2e`, `load`, `agents`) runs one. Options set here are shared; each project adds its own.
// The unit and integration tests mirror src/emulator's areas (test/unit/<area>, test/integration/<area>:
// chat, embeddings, video, faults, http...), so `npx vitest run test/*/chat` runs one area's tests.
//
// Two test files run at once (the machines this runs on have two cores), each worker reusing the
// modules it has loaded for the files after (`isolate: false`): loading the emulator's modules for each
// of 190 files was a fifth of the run. The emulator keeps no state in its modules that one test could
// leave for another (each test makes its own emulator; what is shared per process, the catalog, the
// tokenizer and the media pool, is built to be). Tests that measure a stall or a process's memory
// (`*.load.test.ts`: a heartbeat beside an attack, a peak RSS) run last, one at a time, with the
// machine to themselves: another file's work would be counted as theirs.
import { configDefaults, defineConfig } from 'vitest/config'

const LOAD = 'test/**/*.load.test.ts'

export default defineConfig({
  test: {
    environment: 'node',
    // Forks: better-sqlite3 is a native addon, and the CLI tests send signals to their children.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          // Pure modules: no server, no database file. Anything slower than this is not a unit test.
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          isolate: false,
          testTimeout: 5_000,
          hookTimeout: 5_000,
        },
      },
      {
        extends: true,
        test: {
          // The emulator in-process (app.inject or a listening server), CLI processes, the official
          // clients, the contract and the fuzz run. Everything outside unit/ and e2e/ lands here, so a test
          // added in a folder that predates the split still runs.
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/unit/**', 'test/e2e/**', 'test/agents/**', LOAD],
          sequence: { groupOrder: 0 },
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // The inspector UI in Chromium, against a real emulator. The global setup rebuilds the UI
          // first when its sources are newer than the build.
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // Stalls and memory, measured with nothing else running: after the other projects, a file at a time.
          name: 'load',
          include: [LOAD],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // The real coding agents (test/agents, installed apart: `npm ci --prefix test/agents`): heavy
          // processes of their own, so they run last, a file at a time, slowing no other test's timing.
          name: 'agents',
          include: ['test/agents/**/*.test.ts'],
          sequence: { groupOrder: 2 },
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 20_000,
        },
      },
    ],
  },
})
