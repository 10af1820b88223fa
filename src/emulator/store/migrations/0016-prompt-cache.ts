import type { Migration } from '../migrate.ts'

// Prompt caching (modules/text/text-cache.service.ts): the prompt prefixes an account has cached for a
// model, each until its time on the virtual clock (a hit moves it on), and the cached and written
// tokens of each generation (GET /api/v1/generation's native_tokens_cached, the inspector).
export default {
  version: 16,
  name: '0016-prompt-cache',
  sql: /* sql */ `
    CREATE TABLE prompt_cache (
      account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      model       TEXT NOT NULL,
      prefix_hash TEXT NOT NULL,
      tokens      INTEGER NOT NULL CHECK (tokens >= 0),
      ttl_ms      INTEGER NOT NULL CHECK (ttl_ms > 0),
      expires_at  INTEGER NOT NULL,
      PRIMARY KEY (account_id, model, prefix_hash)
    ) STRICT;

    ALTER TABLE generations ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cached_tokens >= 0);
    ALTER TABLE generations ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cache_write_tokens >= 0);
  `,
} satisfies Migration
