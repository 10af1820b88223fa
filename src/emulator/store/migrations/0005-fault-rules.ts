import type { Migration } from '../migrate.ts'

// Fault rules are state like any other: they survive a restart, are exported, and a reset clears
// them. `evaluations` numbers each chance a rule had, so its probability draws are reproducible.
export default {
  version: 5,
  name: '0005-fault-rules',
  sql: /* sql */ `
    CREATE TABLE fault_rules (
      id          TEXT PRIMARY KEY,
      name        TEXT,
      enabled     INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
      match       TEXT NOT NULL,
      action      TEXT NOT NULL,
      probability REAL NOT NULL DEFAULT 1 CHECK (probability >= 0 AND probability <= 1),
      remaining   INTEGER CHECK (remaining IS NULL OR remaining >= 0),
      expires_at  INTEGER,
      evaluations INTEGER NOT NULL DEFAULT 0,
      hits        INTEGER NOT NULL DEFAULT 0,
      created_at  INTEGER NOT NULL,
      updated_at  INTEGER
    ) STRICT;
  `,
} satisfies Migration
