// What the admin API's own routes answer (health, state, accounts, keys, clock, stats), as TypeBox
// schemas; each area's admin answers are in its own schemas. The routes serialize and document their
// answers with them, and admin/types.ts derives the types the testing helper and the inspector import.
// TypeBox only (nothing of Node), so the browser build type-checks it.
import { Type, type Static } from 'typebox'
import { Iso, Nullable, Shape, StringEnum } from '../http/schemas.ts'
import { KeyObject } from '../modules/keys/keys.schemas.ts'

// ---- Accounts and keys ---------------------------------------------------------------------------

export const Member = Shape({ id: Type.String(), name: Type.String(), email: Type.String(), role: Type.String() })
export type Member = Static<typeof Member>

export const Account = Shape({
  id: Type.String(),
  name: Type.String(),
  credits_usd: Type.Number({ description: 'Credits bought (USD)' }),
  spent_usd: Type.Number({ description: 'Spent so far (USD)' }),
  balance_usd: Type.Number({ description: 'credits_usd - spent_usd; negative when spend ran past the credits' }),
  workspace_id: Type.String(),
  created_at: Iso(),
  ignored_providers: Type.Array(Type.String()),
  zdr_only: Type.Boolean(),
})
export type Account = Static<typeof Account>

export const AccountDetail = Shape({ ...Account.properties, members: Type.Array(Member) })
export type AccountDetail = Static<typeof AccountDetail>

export const CreatedAccount = Shape({
  id: Type.String(),
  name: Type.String(),
  management_key: Type.String({ description: 'The new management key (sk-gw-v1-...)' }),
  standard_key: Type.String({ description: 'The new standard key (sk-gw-v1-...)' }),
  credits_usd: Type.Number(),
  workspace_id: Type.String(),
  members: Type.Array(Member),
})
export type CreatedAccount = Static<typeof CreatedAccount>

export const KeyKind = StringEnum(['management', 'standard'] as const)
export type KeyKind = Static<typeof KeyKind>
export const AdminKey = Shape({
  ...KeyObject.properties,
  kind: KeyKind,
  key: Nullable(Type.String({ description: 'The token (kept for keys the emulator made)' })),
})
export type AdminKey = Static<typeof AdminKey>

export const ClockState = Shape({ now: Iso('The virtual now'), mode: StringEnum(['system', 'manual'] as const) })

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
})
export type Stats = Static<typeof Stats>
