// Three projects, one command: `npm test` runs them all, `npx vitest run --project unit` (or
// `integration`, `e2e`) runs one. Options set here are shared; each project adds its own.
// The unit and integration tests mirror src/emulator's areas (test/unit/<area>, test/integration/<area>:
// chat, embeddings, video, faults, http...), so `npx vitest run test/*/chat` runs one area's tests.
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    environment: 'node',
    // Forks: better-sqlite3 is a native addon, and the CLI tests send signals to their children.
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          // Pure modules: no server, no database file. Anything slower than this is not a unit test.
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
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
          exclude: [...configDefaults.exclude, 'test/unit/**', 'test/e2e/**'],
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
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
    ],
  },
})
