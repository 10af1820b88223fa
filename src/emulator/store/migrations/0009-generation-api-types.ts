import type { Migration } from '../migrate.ts'

// Every inference surface records a generation (GET /api/v1/generation answers for each), typed as the
// real document's `api_type` enum; the Responses and Messages APIs are `completions` there too.
// SQLite cannot change a CHECK in place: the table is rebuilt with the same rows.
export default {
  version: 9,
  name: '0009-generation-api-types',
  sql: /* sql */ `
    CREATE TABLE generations_next (
      id                 TEXT PRIMARY KEY,
      usage_id           INTEGER NOT NULL REFERENCES usage(id) ON DELETE CASCADE,
      account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      api_type           TEXT NOT NULL CHECK (api_type IN ('completions', 'embeddings', 'rerank', 'tts', 'stt', 'video', 'image')),
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
    INSERT INTO generations_next SELECT * FROM generations;
    DROP TABLE generations;
    ALTER TABLE generations_next RENAME TO generations;
    CREATE INDEX generations_usage ON generations(usage_id);
    CREATE INDEX generations_account ON generations(account_id, created_at);
  `,
} satisfies Migration
