import type { Migration } from '../migrate.ts'

// Video tasks and their state timeline, and the callback outbox: a delivery is written in the same
// transaction as the state change it reports, so none is lost across a crash or a restart; every
// attempt at it is kept.
export default {
  version: 4,
  name: '0004-video-tasks-callbacks',
  sql: /* sql */ `
    CREATE TABLE video_tasks (
      id          TEXT PRIMARY KEY,
      account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key_hash    TEXT,
      operation   TEXT NOT NULL,
      model       TEXT,
      template    TEXT,
      request     TEXT NOT NULL,
      state       TEXT NOT NULL CHECK (state IN ('created', 'queueing', 'processing', 'success', 'failed')),
      err_code    TEXT NOT NULL DEFAULT '',
      credits     INTEGER NOT NULL,
      usage_id    INTEGER,
      refunded    INTEGER NOT NULL DEFAULT 0 CHECK (refunded IN (0, 1)),
      payload     TEXT NOT NULL DEFAULT '',
      callback_url TEXT,
      origin      TEXT NOT NULL,
      off_peak    INTEGER NOT NULL DEFAULT 0 CHECK (off_peak IN (0, 1)),
      watermark   INTEGER NOT NULL DEFAULT 0 CHECK (watermark IN (0, 1)),
      outcome     TEXT NOT NULL CHECK (outcome IN ('success', 'failed', 'stuck')),
      fail_code   TEXT,
      next_at     INTEGER,
      state_at    INTEGER NOT NULL,
      created_at  INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX video_tasks_account ON video_tasks(account_id, created_at);
    CREATE INDEX video_tasks_due ON video_tasks(next_at) WHERE next_at IS NOT NULL;

    CREATE TABLE video_task_states (
      task_id TEXT NOT NULL REFERENCES video_tasks(id) ON DELETE CASCADE,
      state   TEXT NOT NULL,
      at      INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX video_task_states_task ON video_task_states(task_id, at);

    CREATE TABLE callback_deliveries (
      id              TEXT PRIMARY KEY,
      account_id      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      task_id         TEXT NOT NULL,
      key_hash        TEXT NOT NULL,
      url             TEXT NOT NULL,
      state           TEXT NOT NULL,
      body            TEXT NOT NULL,
      status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts        INTEGER NOT NULL DEFAULT 0,
      max_attempts    INTEGER NOT NULL CHECK (max_attempts >= 1),
      next_attempt_at INTEGER,
      created_at      INTEGER NOT NULL,
      delivered_at    INTEGER
    ) STRICT;
    CREATE INDEX callback_deliveries_due ON callback_deliveries(status, next_attempt_at);
    CREATE INDEX callback_deliveries_task ON callback_deliveries(task_id, created_at);

    CREATE TABLE callback_attempts (
      id          INTEGER PRIMARY KEY,
      delivery_id TEXT NOT NULL REFERENCES callback_deliveries(id) ON DELETE CASCADE,
      attempt     INTEGER NOT NULL,
      at          INTEGER NOT NULL,
      wall_at     INTEGER NOT NULL,
      status      INTEGER,
      duration_ms INTEGER NOT NULL,
      error       TEXT
    ) STRICT;
    CREATE INDEX callback_attempts_delivery ON callback_attempts(delivery_id, attempt);
  `,
} satisfies Migration
