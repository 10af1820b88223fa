import type { Migration } from '../migrate.ts'

// One row per chat or text completion: what GET /api/v1/generation answers about it. Cost and tokens
// stay in the usage row (the ledger's), so they move with refunds and account resets like any usage.
export default {
  version: 7,
  name: '0007-generations',
  sql: /* sql */ `
    CREATE TABLE generations (
      id                 TEXT PRIMARY KEY,
      usage_id           INTEGER NOT NULL REFERENCES usage(id) ON DELETE CASCADE,
      account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      api_type           TEXT NOT NULL CHECK (api_type IN ('completions')),
      streamed           INTEGER NOT NULL CHECK (streamed IN (0, 1)),
      finish_reason      TEXT,
      latency_ms         INTEGER NOT NULL,
      generation_time_ms INTEGER NOT NULL,
      http_referer       TEXT,
      app_title          TEXT,
      user_agent         TEXT,
      external_user      TEXT,
      created_at         INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX generations_usage ON generations(usage_id);
    CREATE INDEX generations_account ON generations(account_id, created_at);
  `,
} satisfies Migration
