import type { Migration } from '../migrate.ts'

// Chat fixtures: per-account rules that answer chat and text completions with given text, tool calls
// or an error. `position` orders an account's rules (the first that matches answers).
export default {
  version: 8,
  name: '0008-chat-fixtures',
  sql: /* sql */ `
    CREATE TABLE chat_fixtures (
      id          TEXT PRIMARY KEY,
      account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name        TEXT,
      enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
      position    INTEGER NOT NULL CHECK (position >= 0),
      match       TEXT NOT NULL,
      answer      TEXT NOT NULL,
      times       INTEGER CHECK (times IS NULL OR times >= 1),
      remaining   INTEGER CHECK (remaining IS NULL OR remaining >= 0),
      hits        INTEGER NOT NULL DEFAULT 0 CHECK (hits >= 0),
      created_at  INTEGER NOT NULL,
      updated_at  INTEGER
    ) STRICT;
    CREATE INDEX chat_fixtures_account ON chat_fixtures(account_id, position);
  `,
} satisfies Migration
