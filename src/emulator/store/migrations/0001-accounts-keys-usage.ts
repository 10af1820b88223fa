import type { Migration } from '../migrate.ts'

// Money is kept in integer nano-USD so sums are exact; times are integer epoch milliseconds of the
// virtual clock. Column names follow the API's field names.
export default {
  version: 1,
  name: '0001-accounts-keys-usage',
  sql: /* sql */ `
    CREATE TABLE meta (
      name  TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;

    CREATE TABLE sequences (
      kind  TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE accounts (
      id            TEXT PRIMARY KEY,
      name          TEXT NOT NULL,
      credits_nanos INTEGER NOT NULL DEFAULT 0,
      workspace_id  TEXT NOT NULL,
      created_at    INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE members (
      id         TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name       TEXT NOT NULL,
      email      TEXT NOT NULL,
      role       TEXT NOT NULL CHECK (role IN ('admin', 'member')),
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX members_account ON members(account_id);

    CREATE TABLE api_keys (
      hash                  TEXT PRIMARY KEY,
      account_id            TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind                  TEXT NOT NULL CHECK (kind IN ('management', 'standard')),
      token                 TEXT,
      name                  TEXT NOT NULL,
      label                 TEXT NOT NULL,
      disabled              INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
      limit_nanos           INTEGER CHECK (limit_nanos IS NULL OR limit_nanos >= 0),
      limit_reset           TEXT CHECK (limit_reset IN ('daily', 'weekly', 'monthly')),
      include_byok_in_limit INTEGER NOT NULL DEFAULT 0 CHECK (include_byok_in_limit IN (0, 1)),
      creator_user_id       TEXT REFERENCES members(id) ON DELETE SET NULL,
      expires_at            INTEGER,
      created_at            INTEGER NOT NULL,
      updated_at            INTEGER
    ) STRICT;
    CREATE INDEX api_keys_account ON api_keys(account_id, kind, created_at);

    CREATE TABLE usage (
      id                INTEGER PRIMARY KEY,
      account_id        TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key_hash          TEXT REFERENCES api_keys(hash) ON DELETE SET NULL,
      member_id         TEXT,
      operation         TEXT NOT NULL,
      model             TEXT NOT NULL,
      provider          TEXT NOT NULL,
      endpoint_id       TEXT NOT NULL,
      prompt_tokens     INTEGER NOT NULL DEFAULT 0,
      completion_tokens INTEGER NOT NULL DEFAULT 0,
      reasoning_tokens  INTEGER NOT NULL DEFAULT 0,
      cost_nanos        INTEGER NOT NULL CHECK (cost_nanos >= 0),
      byok              INTEGER NOT NULL DEFAULT 0 CHECK (byok IN (0, 1)),
      created_at        INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX usage_key_time ON usage(key_hash, created_at);
    CREATE INDEX usage_account_time ON usage(account_id, created_at);
  `,
} satisfies Migration
