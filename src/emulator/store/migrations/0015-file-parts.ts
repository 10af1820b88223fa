import type { Migration } from '../migrate.ts'

// A file's bytes in parts: base64 of at most 1,048,575 bytes each (a multiple of 3, so the parts join
// into one valid base64 text), written one at a time, so no single statement holds a 25 MB file (one
// insert of its 33 MB of base64 held the event loop half a second). A file's parts are written before
// its row, which makes them visible all at once; parts whose file never appeared are removed at start.
// The parts carry their account, so an account's deletion takes them with it. The bytes of the files
// kept so far move into parts, and the column that held them whole goes.
export default {
  version: 15,
  name: '0015-file-parts',
  sql: /* sql */ `
    CREATE TABLE file_parts (
      file_id    TEXT NOT NULL,
      part       INTEGER NOT NULL CHECK (part >= 0),
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      content    TEXT NOT NULL,
      PRIMARY KEY (file_id, part)
    ) STRICT;
    CREATE INDEX file_parts_account ON file_parts(account_id);

    WITH RECURSIVE n(i) AS (
      SELECT 0
      UNION ALL
      SELECT i + 1 FROM n WHERE (i + 1) * 1398100 < (SELECT COALESCE(MAX(length(content)), 0) FROM files)
    )
    INSERT INTO file_parts (file_id, part, account_id, content)
    SELECT f.id, n.i, f.account_id, substr(f.content, n.i * 1398100 + 1, 1398100)
    FROM files f JOIN n ON n.i * 1398100 < length(f.content);

    ALTER TABLE files DROP COLUMN content;
  `,
} satisfies Migration
