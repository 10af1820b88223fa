import type { Migration } from '../migrate.ts'

// The account's routing preferences (providers it ignores, zero data retention only), which
// /models/user and billing honour; and the catalog as changed through the admin API, which outlives
// a restart until a reset puts the fixtures' catalog back.
export default {
  version: 2,
  name: '0002-catalog-and-account-preferences',
  sql: /* sql */ `
    ALTER TABLE accounts ADD COLUMN ignored_providers TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE accounts ADD COLUMN zdr_only INTEGER NOT NULL DEFAULT 0 CHECK (zdr_only IN (0, 1));

    CREATE TABLE catalog_override (
      id         INTEGER PRIMARY KEY CHECK (id = 1),
      document   TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
  `,
} satisfies Migration
