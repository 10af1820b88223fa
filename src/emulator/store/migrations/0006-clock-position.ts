import type { Migration } from '../migrate.ts'

// Where the virtual clock stands, so a file-backed emulator resumes its time after a restart instead of
// falling back to real time (or --clock-start) with tasks, charges and usage already later than that.
// It describes the emulator, not the state: exports, imports and resets leave it alone.
export default {
  version: 6,
  name: '0006-clock-position',
  sql: /* sql */ `
    CREATE TABLE clock_position (
      id        INTEGER PRIMARY KEY CHECK (id = 1),
      mode      TEXT NOT NULL CHECK (mode IN ('system', 'manual')),
      now       INTEGER NOT NULL,
      offset_ms INTEGER NOT NULL
    ) STRICT;
  `,
} satisfies Migration
