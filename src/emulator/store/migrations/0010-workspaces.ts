import type { Migration } from '../migrate.ts'

// Workspaces: every account has its default one (id = accounts.workspace_id, created here for the
// accounts that exist and by createAccount for new ones) and may add more, each with budgets per reset
// interval and explicit members (the default workspace's members are the account's, implicitly).
// Usage rows record the workspace of their key when written, so a budget's spend is a sum over its
// own rows, and moving or deleting a key never moves spend; older rows belong to the account's default.
export default {
  version: 10,
  name: '0010-workspaces',
  sql: /* sql */ `
    CREATE TABLE workspaces (
      id                                  TEXT PRIMARY KEY,
      account_id                          TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name                                TEXT NOT NULL,
      slug                                TEXT NOT NULL,
      description                         TEXT,
      default_text_model                  TEXT,
      default_image_model                 TEXT,
      default_provider_sort               TEXT,
      is_observability_io_logging_enabled INTEGER NOT NULL DEFAULT 0 CHECK (is_observability_io_logging_enabled IN (0, 1)),
      is_observability_broadcast_enabled  INTEGER NOT NULL DEFAULT 0 CHECK (is_observability_broadcast_enabled IN (0, 1)),
      is_data_discount_logging_enabled    INTEGER NOT NULL DEFAULT 1 CHECK (is_data_discount_logging_enabled IN (0, 1)),
      io_logging_sampling_rate            REAL NOT NULL DEFAULT 1 CHECK (io_logging_sampling_rate > 0 AND io_logging_sampling_rate <= 1),
      io_logging_api_key_ids              TEXT,
      include_byok_in_budgets             INTEGER NOT NULL DEFAULT 0 CHECK (include_byok_in_budgets IN (0, 1)),
      created_by                          TEXT REFERENCES members(id) ON DELETE SET NULL,
      created_at                          INTEGER NOT NULL,
      updated_at                          INTEGER,
      UNIQUE (account_id, slug)
    ) STRICT;
    CREATE INDEX workspaces_account ON workspaces(account_id, created_at);

    CREATE TABLE workspace_budgets (
      id             TEXT PRIMARY KEY,
      workspace_id   TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      reset_interval TEXT NOT NULL CHECK (reset_interval IN ('daily', 'weekly', 'monthly', 'lifetime')),
      limit_nanos    INTEGER NOT NULL CHECK (limit_nanos > 0),
      created_at     INTEGER NOT NULL,
      updated_at     INTEGER NOT NULL,
      UNIQUE (workspace_id, reset_interval)
    ) STRICT;

    CREATE TABLE workspace_members (
      id           TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
      created_at   INTEGER NOT NULL,
      UNIQUE (workspace_id, member_id)
    ) STRICT;
    CREATE INDEX workspace_members_member ON workspace_members(member_id);

    INSERT INTO workspaces (id, account_id, name, slug, created_by, created_at)
      SELECT a.workspace_id, a.id, 'Default Workspace', 'default',
        (SELECT m.id FROM members m WHERE m.account_id = a.id ORDER BY m.created_at, m.rowid LIMIT 1), a.created_at
      FROM accounts a ORDER BY a.created_at, a.rowid;

    ALTER TABLE usage ADD COLUMN workspace_id TEXT;
    UPDATE usage SET workspace_id = (SELECT a.workspace_id FROM accounts a WHERE a.id = usage.account_id);
  `,
} satisfies Migration
