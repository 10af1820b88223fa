import type { Migration } from '../migrate.ts'

// Bring-your-own-key credentials and observability destinations, each in a workspace of its account.
// A credential keeps only the masked label of its provider key (the emulator never calls a provider,
// so the raw key is not needed): no export, import or journal can hold it. A destination keeps its
// config with its secrets masked, and the last usage row it has considered (`traced_usage_id`): the
// broadcaster turns the rows after it into trace deliveries and moves it in the same transaction.
export default {
  version: 12,
  name: '0012-byok-observability',
  sql: /* sql */ `
    CREATE TABLE byok_credentials (
      id                     TEXT PRIMARY KEY,
      account_id             TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      workspace_id           TEXT NOT NULL,
      provider               TEXT NOT NULL,
      name                   TEXT,
      label                  TEXT NOT NULL,
      disabled               INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
      is_fallback            INTEGER NOT NULL DEFAULT 0 CHECK (is_fallback IN (0, 1)),
      is_byok_only           INTEGER NOT NULL DEFAULT 0 CHECK (is_byok_only IN (0, 1)),
      is_required            INTEGER NOT NULL DEFAULT 0 CHECK (is_required IN (0, 1)),
      declared_zdr           INTEGER CHECK (declared_zdr IN (0, 1)),
      allowed_models         TEXT,
      allowed_api_key_hashes TEXT,
      allowed_user_ids       TEXT,
      sort_order             INTEGER NOT NULL CHECK (sort_order >= 0),
      created_at             INTEGER NOT NULL,
      updated_at             INTEGER
    ) STRICT;
    CREATE INDEX byok_credentials_provider ON byok_credentials(account_id, workspace_id, provider, sort_order);

    CREATE TABLE observability_destinations (
      id                                   TEXT PRIMARY KEY,
      account_id                           TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      workspace_id                         TEXT NOT NULL,
      type                                 TEXT NOT NULL,
      name                                 TEXT NOT NULL,
      config                               TEXT NOT NULL,
      enabled                              INTEGER NOT NULL CHECK (enabled IN (0, 1)),
      privacy_mode                         INTEGER NOT NULL CHECK (privacy_mode IN (0, 1)),
      broadcast_generation_cost            INTEGER NOT NULL CHECK (broadcast_generation_cost IN (0, 1)),
      broadcast_generation_identity        INTEGER NOT NULL CHECK (broadcast_generation_identity IN (0, 1)),
      broadcast_generation_request_context INTEGER NOT NULL CHECK (broadcast_generation_request_context IN (0, 1)),
      sampling_rate                        REAL NOT NULL CHECK (sampling_rate > 0 AND sampling_rate <= 1),
      api_key_hashes                       TEXT,
      filter_rules                         TEXT,
      regions                              TEXT NOT NULL,
      traced_usage_id                      INTEGER NOT NULL CHECK (traced_usage_id >= 0),
      created_at                           INTEGER NOT NULL,
      updated_at                           INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX observability_destinations_workspace ON observability_destinations(account_id, workspace_id, type);

    -- SQLite reuses the ids of deleted rows at the top of a table: once the last usage rows go (an
    -- account reset or deletion), no mark may stay past the last one left, or the next rows would be
    -- taken as traced already.
    CREATE TRIGGER observability_marks_follow_usage AFTER DELETE ON usage
    WHEN OLD.id > (SELECT COALESCE(MAX(id), 0) FROM usage)
    BEGIN
      UPDATE observability_destinations SET traced_usage_id = (SELECT COALESCE(MAX(id), 0) FROM usage)
      WHERE traced_usage_id > (SELECT COALESCE(MAX(id), 0) FROM usage);
    END;
  `,
} satisfies Migration
