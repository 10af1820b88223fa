// What the admin API's own routes answer (health, state, accounts, keys, clock, stats), as TypeBox
// schemas; each area's admin answers are in its own schemas. The routes serialize and document their
// answers with them, and admin/types.ts derives the types the testing helper and the inspector import.
// TypeBox only (nothing of Node), so the browser build type-checks it.
import { Type, type Static } from 'typebox'
import { Shape } from '../http/schemas.ts'
import { Account } from '../modules/accounts/accounts.schemas.ts'
import { ClockState } from '../modules/clock/clock.schemas.ts'

export const EmulatorState = Shape({
  version: Type.String(),
  seed: Type.Integer(),
  database: Type.String(),
  clock: ClockState,
  accounts: Type.Array(Account),
})

// ---- Stats (GET /stats) -------------------------------------------------------------------------

const Held = (what: string) =>
  Shape({
    entries: Type.Integer(),
    bytes: Type.Integer({ description: `Bytes ${what} holds` }),
    limit_bytes: Type.Integer({ description: 'The most it may hold' }),
  })

/** What the emulator holds in memory, and the bounds it keeps to. */
export const Stats = Shape({
  process: Shape({
    rss_bytes: Type.Integer(),
    heap_used_bytes: Type.Integer(),
    heap_total_bytes: Type.Integer(),
    external_bytes: Type.Integer({ description: 'Memory outside the JavaScript heap (buffers), as V8 counts it' }),
  }),
  journal: Held('of request and response bodies the journal'),
  vector_cache: Held('the embeddings vector cache (keys, vectors and their encodings)'),
  catalog_cache: Held("of model lists and other bodies the catalog's cache (two halves: lists, and other bodies)"),
  generation_content: Held('of prompts and answers (UTF-8, in the database) the generation content over all accounts'),
})
export type Stats = Static<typeof Stats>
