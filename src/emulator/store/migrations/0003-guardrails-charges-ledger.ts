import type { Migration } from '../migrate.ts'

// Guardrails and their assignments (one guardrail at most per key and per member, enforced by UNIQUE),
// crypto charges, and the account's running spend, which the ledger moves in the same transaction as
// each usage row so a balance never needs a scan of the usage table.
export default {
  version: 3,
  name: '0003-guardrails-charges-ledger',
  sql: /* sql */ `
    CREATE TABLE guardrails (
      id                      TEXT PRIMARY KEY,
      account_id              TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name                    TEXT NOT NULL,
      description             TEXT,
      limit_nanos             INTEGER CHECK (limit_nanos IS NULL OR limit_nanos >= 0),
      reset_interval          TEXT CHECK (reset_interval IN ('daily', 'weekly', 'monthly')),
      allowed_providers       TEXT,
      ignored_providers       TEXT,
      allowed_models          TEXT,
      enforce_zdr             INTEGER CHECK (enforce_zdr IN (0, 1)),
      include_byok_in_budgets INTEGER NOT NULL DEFAULT 0 CHECK (include_byok_in_budgets IN (0, 1)),
      extras                  TEXT NOT NULL DEFAULT '{}',
      created_at              INTEGER NOT NULL,
      updated_at              INTEGER
    ) STRICT;
    CREATE INDEX guardrails_account ON guardrails(account_id, created_at);

    CREATE TABLE guardrail_key_assignments (
      id           TEXT PRIMARY KEY,
      guardrail_id TEXT NOT NULL REFERENCES guardrails(id) ON DELETE CASCADE,
      key_hash     TEXT NOT NULL UNIQUE REFERENCES api_keys(hash) ON DELETE CASCADE,
      assigned_by  TEXT,
      created_at   INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX guardrail_key_assignments_guardrail ON guardrail_key_assignments(guardrail_id, created_at);

    CREATE TABLE guardrail_member_assignments (
      id           TEXT PRIMARY KEY,
      guardrail_id TEXT NOT NULL REFERENCES guardrails(id) ON DELETE CASCADE,
      member_id    TEXT NOT NULL UNIQUE REFERENCES members(id) ON DELETE CASCADE,
      assigned_by  TEXT,
      created_at   INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX guardrail_member_assignments_guardrail ON guardrail_member_assignments(guardrail_id, created_at);

    CREATE TABLE charges (
      id           TEXT PRIMARY KEY,
      account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key_hash     TEXT,
      amount_nanos INTEGER NOT NULL CHECK (amount_nanos > 0),
      chain_id     INTEGER NOT NULL CHECK (chain_id IN (1, 137, 8453)),
      sender       TEXT NOT NULL,
      status       TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'expired')),
      web3_data    TEXT NOT NULL,
      created_at   INTEGER NOT NULL,
      expires_at   INTEGER NOT NULL,
      confirm_at   INTEGER,
      confirmed_at INTEGER
    ) STRICT;
    CREATE INDEX charges_account ON charges(account_id, created_at);
    CREATE INDEX charges_pending ON charges(status, expires_at);

    ALTER TABLE accounts ADD COLUMN spent_nanos INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX usage_member_time ON usage(member_id, created_at);
  `,
} satisfies Migration
