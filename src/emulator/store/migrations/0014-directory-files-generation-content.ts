import type { Migration } from '../migrate.ts'

// The organization's directory and content: SCIM group mappings (a group of the account's deterministic
// directory given a role in one of its workspaces), uploaded files (bytes kept as base64 text, so the
// state document carries them), the stored prompt and answer of each text generation, and one piece of
// feedback per generation.
export default {
  version: 14,
  name: '0014-directory-files-generation-content',
  sql: /* sql */ `
    CREATE TABLE scim_group_mappings (
      id            TEXT PRIMARY KEY,
      account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      scim_group_id TEXT NOT NULL,
      workspace_id  TEXT NOT NULL,
      role          TEXT NOT NULL CHECK (role IN ('admin', 'member')),
      created_at    INTEGER NOT NULL,
      updated_at    INTEGER NOT NULL,
      UNIQUE (account_id, scim_group_id, workspace_id)
    ) STRICT;

    CREATE TABLE files (
      id           TEXT PRIMARY KEY,
      account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      workspace_id TEXT NOT NULL,
      provider     TEXT NOT NULL CHECK (provider IN ('openrouter', 'openai', 'anthropic')),
      filename     TEXT NOT NULL,
      mime_type    TEXT NOT NULL,
      purpose      TEXT NOT NULL,
      size_bytes   INTEGER NOT NULL CHECK (size_bytes > 0),
      downloadable INTEGER NOT NULL CHECK (downloadable IN (0, 1)),
      content      TEXT NOT NULL,
      created_at   INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX files_scope ON files(account_id, workspace_id, provider, created_at);

    CREATE TABLE generation_contents (
      generation_id TEXT PRIMARY KEY REFERENCES generations(id) ON DELETE CASCADE,
      account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      input         TEXT NOT NULL,
      completion    TEXT,
      reasoning     TEXT
    ) STRICT;
    CREATE INDEX generation_contents_account ON generation_contents(account_id);

    CREATE TABLE generation_feedback (
      generation_id TEXT PRIMARY KEY REFERENCES generations(id) ON DELETE CASCADE,
      account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      category      TEXT NOT NULL CHECK (category IN ('latency', 'incoherence', 'incorrect_response', 'formatting', 'billing', 'api_error', 'other')),
      comment       TEXT,
      created_at    INTEGER NOT NULL,
      updated_at    INTEGER
    ) STRICT;
    CREATE INDEX generation_feedback_account ON generation_feedback(account_id, created_at);
  `,
} satisfies Migration
