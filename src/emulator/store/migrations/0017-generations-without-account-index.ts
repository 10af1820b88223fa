import type { Migration } from '../migrate.ts'

// No query reads generations by account and time: a generation is found by its id (GET /generation,
// with its account checked on the row) or by its usage row (analytics, observability), and only an
// account's reset or deletion goes through them by account, rarely enough to scan. The index cost
// 46 bytes of every generation (4.6 MB after 100,000 requests in memory) and an insert per request.
export default {
  version: 17,
  name: '0017-generations-without-account-index',
  sql: /* sql */ `
    DROP INDEX generations_account;
  `,
} satisfies Migration
