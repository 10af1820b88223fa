// Signing up: an account made whole in one step, its members, its default workspace and its starter
// keys, in one transaction. The seed and the admin API's POST /accounts both make accounts here, the
// one area above accounts, workspaces and keys (each of which knows only those below it).
import { loadFaker } from '../../core/faker.ts'
import { createRng } from '../../core/rng.ts'
import { usdToNanos } from '../../core/money.ts'
import type { EmulatorContext } from '../module.ts'
import type { ResetInterval } from '../../core/windows.ts'
import type { AccountRow, MemberRow } from '../accounts/accounts.repo.ts'
import type { KeyKind, KeyRow } from '../keys/keys.repo.ts'
import { insertKey } from '../keys/keys.service.ts'

export interface NewMember {
  name: string
  email: string
  role?: 'admin' | 'member'
}

export interface NewAccountKey {
  kind: KeyKind
  name: string
  disabled?: boolean
  limit_usd?: number | null
  limit_reset?: ResetInterval | null
  include_byok_in_limit?: boolean
  /** Expiry relative to creation, in days. */
  expires_in_days?: number | null
  /** Index into the account's members (default 0, the admin). */
  member?: number
}

export interface NewAccount {
  /** Fixes every id and token of the account: same seed and label, same values. */
  label: string
  name: string
  credits_usd: number
  members: NewMember[]
  keys: NewAccountKey[]
  ignored_providers?: string[]
  zdr_only?: boolean
}

export interface CreatedAccount {
  account: AccountRow
  members: MemberRow[]
  keys: Array<{ row: KeyRow; token: string }>
}

/** Creates an account with its members and keys in one transaction. */
export function createAccount(ctx: EmulatorContext, input: NewAccount): CreatedAccount {
  return ctx.db
    .transaction((): CreatedAccount => {
      const now = ctx.clock.now()
      const account: AccountRow = {
        id: ctx.ids.account(input.label),
        name: input.name,
        credits_nanos: usdToNanos(input.credits_usd),
        workspace_id: ctx.ids.uuid(`workspace:${input.label}`),
        created_at: now,
        ignored_providers: JSON.stringify(input.ignored_providers ?? []),
        zdr_only: input.zdr_only ? 1 : 0,
        spent_nanos: 0,
      }
      ctx.services.accounts.insert(account)
      const members = input.members.map((m, i): MemberRow => {
        const row: MemberRow = {
          id: ctx.ids.member(`${input.label}:${i}`),
          account_id: account.id,
          name: m.name,
          email: m.email,
          role: m.role ?? (i === 0 ? 'admin' : 'member'),
          created_at: now,
        }
        ctx.services.accounts.insertMember(row)
        return row
      })
      // Before the keys: they belong to it.
      ctx.services.workspaces.insertDefault(account, members[0]?.id ?? null)
      const keys = input.keys.map((k, i) =>
        insertKey(ctx, {
          account_id: account.id,
          kind: k.kind,
          name: k.name,
          label: `${input.label}:key:${i}`,
          creator_user_id: members[k.member ?? 0]?.id ?? null,
          disabled: k.disabled ?? false,
          limit_usd: k.limit_usd ?? null,
          limit_reset: k.limit_reset ?? null,
          include_byok_in_limit: k.include_byok_in_limit ?? false,
          expires_at: k.expires_in_days === undefined || k.expires_in_days === null ? null : now + k.expires_in_days * 86_400_000,
        }),
      )
      return { account, members, keys }
    })
    .immediate()
}

/** A few plausible members for a new account, fixed by (seed, label). Faker loads on first use only. */
export async function generateMembers(seed: number, label: string, count = 3): Promise<NewMember[]> {
  const faker = (await loadFaker())(createRng(seed, `members:${label}`))
  return Array.from({ length: count }, () => {
    const firstName = faker.person.firstName()
    const lastName = faker.person.lastName()
    return { name: `${firstName} ${lastName}`, email: faker.internet.email({ firstName, lastName, provider: 'example.com' }).toLowerCase() }
  })
}

/** The keys every admin-created account starts with: one management key and one standard key. */
export const STARTER_KEYS: NewAccountKey[] = [
  { kind: 'management', name: 'Management key' },
  { kind: 'standard', name: 'Default key' },
]
