import type { Migration } from '../migrate.ts'

// Presets: named model configurations of an account, each a list of numbered versions (the latest
// is the designated one, applied to requests that name the preset). A slug is unique per account.
export default {
  version: 13,
  name: '0013-presets',
  sql: /* sql */ `
    CREATE TABLE presets (
      id                TEXT PRIMARY KEY,
      account_id        TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      workspace_id      TEXT NOT NULL,
      slug              TEXT NOT NULL,
      name              TEXT NOT NULL,
      description       TEXT,
      status            TEXT NOT NULL CHECK (status IN ('active', 'disabled', 'archived')),
      creator_user_id   TEXT,
      created_at        INTEGER NOT NULL,
      updated_at        INTEGER NOT NULL,
      status_updated_at INTEGER,
      UNIQUE (account_id, slug)
    ) STRICT;
    CREATE INDEX presets_account_updated ON presets(account_id, updated_at);
    CREATE TABLE preset_versions (
      id            TEXT PRIMARY KEY,
      preset_id     TEXT NOT NULL REFERENCES presets(id) ON DELETE CASCADE,
      version       INTEGER NOT NULL CHECK (version >= 1),
      creator_id    TEXT NOT NULL,
      system_prompt TEXT,
      config        TEXT NOT NULL,
      created_at    INTEGER NOT NULL,
      updated_at    INTEGER NOT NULL,
      UNIQUE (preset_id, version)
    ) STRICT;
  `,
} satisfies Migration
