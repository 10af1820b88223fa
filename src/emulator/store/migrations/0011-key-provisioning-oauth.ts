import type { Migration } from '../migrate.ts'

// Keys belong to a workspace (POST /keys names one, or takes the account's default): existing keys
// take their account's. NULL stays readable as "the account's default workspace", so a state document
// from before this column imports as it was.
// OAuth PKCE authorization codes: one row per code, kept (with used_at) after its exchange so a second
// exchange is told the code was used, and deleted once expired.
export default {
  version: 11,
  name: '0011-key-provisioning-oauth',
  sql: /* sql */ `
    ALTER TABLE api_keys ADD COLUMN workspace_id TEXT;
    UPDATE api_keys SET workspace_id = (SELECT a.workspace_id FROM accounts a WHERE a.id = api_keys.account_id);

    CREATE TABLE oauth_codes (
      id                    TEXT PRIMARY KEY,
      account_id            TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id               TEXT REFERENCES members(id) ON DELETE SET NULL,
      app_id                INTEGER NOT NULL,
      callback_url          TEXT NOT NULL,
      code_challenge        TEXT,
      code_challenge_method TEXT CHECK (code_challenge_method IN ('S256', 'plain')),
      key_name              TEXT NOT NULL,
      limit_nanos           INTEGER CHECK (limit_nanos IS NULL OR limit_nanos >= 0),
      limit_reset           TEXT CHECK (limit_reset IN ('daily', 'weekly', 'monthly')),
      key_expires_at        INTEGER,
      workspace_id          TEXT,
      created_at            INTEGER NOT NULL,
      expires_at            INTEGER NOT NULL,
      used_at               INTEGER,
      CHECK ((code_challenge IS NULL) = (code_challenge_method IS NULL))
    ) STRICT;
    CREATE INDEX oauth_codes_account ON oauth_codes(account_id, expires_at);
    CREATE INDEX oauth_codes_expiry ON oauth_codes(expires_at);
  `,
} satisfies Migration
