// Prepared SQL for guardrails and their assignments. A key or member has at most one guardrail: the
// UNIQUE columns make "assign" an upsert that moves it.
import type { ResetInterval } from '../../core/windows.ts'
import type { DB } from '../../store/db.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import type { Services } from '../module.ts'

export interface GuardrailRow {
  id: string
  account_id: string
  name: string
  description: string | null
  limit_nanos: number | null
  reset_interval: ResetInterval | null
  /** JSON arrays, or null for "no restriction". */
  allowed_providers: string | null
  ignored_providers: string | null
  allowed_models: string | null
  enforce_zdr: 0 | 1 | null
  include_byok_in_budgets: 0 | 1
  /** JSON object of client fields stored as sent. */
  extras: string
  created_at: number
  updated_at: number | null
}

export interface KeyAssignmentRow {
  id: string
  guardrail_id: string
  key_hash: string
  key_name: string
  key_label: string
  assigned_by: string | null
  created_at: number
}

export interface MemberAssignmentRow {
  id: string
  guardrail_id: string
  member_id: string
  account_id: string
  assigned_by: string | null
  created_at: number
}

/** An assignment as stored; the rows above add what the keys and accounts areas know of it. */
type KeyAssignment = Omit<KeyAssignmentRow, 'key_name' | 'key_label'>
type MemberAssignment = Omit<MemberAssignmentRow, 'account_id'>

/** `services`: the keys, accounts and usage areas' reads, for what an assignment shows and a budget has spent. */
export function createGuardrailsRepo(db: DB, services: Pick<Services, 'keys' | 'accounts' | 'usage'>) {
  const insertStmt = db.prepare<GuardrailRow>(
    `INSERT INTO guardrails (id, account_id, name, description, limit_nanos, reset_interval, allowed_providers, ignored_providers,
       allowed_models, enforce_zdr, include_byok_in_budgets, extras, created_at, updated_at)
     VALUES (@id, @account_id, @name, @description, @limit_nanos, @reset_interval, @allowed_providers, @ignored_providers,
       @allowed_models, @enforce_zdr, @include_byok_in_budgets, @extras, @created_at, @updated_at)`,
  )
  const updateStmt = db.prepare<GuardrailRow>(
    `UPDATE guardrails SET name = @name, description = @description, limit_nanos = @limit_nanos, reset_interval = @reset_interval,
       allowed_providers = @allowed_providers, ignored_providers = @ignored_providers, allowed_models = @allowed_models,
       enforce_zdr = @enforce_zdr, include_byok_in_budgets = @include_byok_in_budgets, extras = @extras, updated_at = @updated_at
     WHERE id = @id`,
  )
  const getStmt = db.prepare<[string], GuardrailRow>('SELECT * FROM guardrails WHERE id = ?')
  const listStmt = db.prepare<{ account_id: string; limit: number; offset: number }, GuardrailRow>(
    'SELECT * FROM guardrails WHERE account_id = @account_id ORDER BY created_at, rowid LIMIT @limit OFFSET @offset',
  )
  const countStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM guardrails WHERE account_id = ?')
  const deleteStmt = db.prepare<[string]>('DELETE FROM guardrails WHERE id = ?')

  const keyAssignmentsStmt = db.prepare<[string], KeyAssignment>(
    'SELECT id, guardrail_id, key_hash, assigned_by, created_at FROM guardrail_key_assignments WHERE guardrail_id = ? ORDER BY created_at, rowid',
  )
  const accountKeyAssignmentsStmt = db.prepare<[string], KeyAssignment>(
    `SELECT a.id, a.guardrail_id, a.key_hash, a.assigned_by, a.created_at
     FROM guardrail_key_assignments a JOIN guardrails g ON g.id = a.guardrail_id WHERE g.account_id = ? ORDER BY a.created_at, a.rowid`,
  )
  // Each with its key's name and label (an assignment of a key gone is none).
  const withKeys = (rows: KeyAssignment[]): KeyAssignmentRow[] =>
    rows.flatMap((a) => {
      const key = services.keys.byHash(a.key_hash)
      return key
        ? [
            {
              id: a.id,
              guardrail_id: a.guardrail_id,
              key_hash: a.key_hash,
              key_name: key.name,
              key_label: key.label,
              assigned_by: a.assigned_by,
              created_at: a.created_at,
            },
          ]
        : []
    })
  const keyGuardrailStmt = db.prepare<[string], { guardrail_id: string }>('SELECT guardrail_id FROM guardrail_key_assignments WHERE key_hash = ?')
  const assignKeyStmt = db.prepare<{ id: string; guardrail_id: string; key_hash: string; assigned_by: string | null; created_at: number }>(
    `INSERT INTO guardrail_key_assignments (id, guardrail_id, key_hash, assigned_by, created_at)
     VALUES (@id, @guardrail_id, @key_hash, @assigned_by, @created_at)
     ON CONFLICT (key_hash) DO UPDATE SET guardrail_id = excluded.guardrail_id, assigned_by = excluded.assigned_by,
       created_at = excluded.created_at
     WHERE guardrail_key_assignments.guardrail_id <> excluded.guardrail_id`,
  )
  const unassignKeyStmt = db.prepare<{ guardrail_id: string; key_hash: string }>(
    'DELETE FROM guardrail_key_assignments WHERE guardrail_id = @guardrail_id AND key_hash = @key_hash',
  )

  const memberAssignmentsStmt = db.prepare<[string], MemberAssignment>(
    'SELECT id, guardrail_id, member_id, assigned_by, created_at FROM guardrail_member_assignments WHERE guardrail_id = ? ORDER BY created_at, rowid',
  )
  const membersAssignmentsStmt = db.prepare<[string], MemberAssignment>(
    `SELECT id, guardrail_id, member_id, assigned_by, created_at FROM guardrail_member_assignments
     WHERE member_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`,
  )
  // Each with its member's account (an assignment of a member gone is none).
  const withAccounts = (rows: MemberAssignment[]): MemberAssignmentRow[] =>
    rows.flatMap((a) => {
      const member = services.accounts.member(a.member_id)
      return member
        ? [
            {
              id: a.id,
              guardrail_id: a.guardrail_id,
              member_id: a.member_id,
              account_id: member.account_id,
              assigned_by: a.assigned_by,
              created_at: a.created_at,
            },
          ]
        : []
    })
  const memberGuardrailStmt = db.prepare<[string], { guardrail_id: string }>('SELECT guardrail_id FROM guardrail_member_assignments WHERE member_id = ?')
  const assignMemberStmt = db.prepare<{ id: string; guardrail_id: string; member_id: string; assigned_by: string | null; created_at: number }>(
    `INSERT INTO guardrail_member_assignments (id, guardrail_id, member_id, assigned_by, created_at)
     VALUES (@id, @guardrail_id, @member_id, @assigned_by, @created_at)
     ON CONFLICT (member_id) DO UPDATE SET guardrail_id = excluded.guardrail_id, assigned_by = excluded.assigned_by,
       created_at = excluded.created_at
     WHERE guardrail_member_assignments.guardrail_id <> excluded.guardrail_id`,
  )
  const unassignMemberStmt = db.prepare<{ guardrail_id: string; member_id: string }>(
    'DELETE FROM guardrail_member_assignments WHERE guardrail_id = @guardrail_id AND member_id = @member_id',
  )

  const assignedKeysStmt = db.prepare<[string], { key_hash: string }>('SELECT key_hash FROM guardrail_key_assignments WHERE guardrail_id = ?')
  const assignedMembersStmt = db.prepare<[string], { member_id: string }>('SELECT member_id FROM guardrail_member_assignments WHERE guardrail_id = ?')

  return {
    insert: (row: GuardrailRow) => void insertStmt.run(row),
    update: (row: GuardrailRow) => void updateStmt.run(row),
    get: (id: string) => getStmt.get(id),
    list: (account_id: string, limit: number, offset: number) => listStmt.all({ account_id, limit, offset }),
    count: (account_id: string) => countStmt.get(account_id)!.n,
    delete: (id: string) => deleteStmt.run(id).changes > 0,
    keyAssignments: (guardrailId: string) => withKeys(keyAssignmentsStmt.all(guardrailId)),
    accountKeyAssignments: (accountId: string) => withKeys(accountKeyAssignmentsStmt.all(accountId)),
    guardrailOfKey: (hash: string) => keyGuardrailStmt.get(hash)?.guardrail_id ?? null,
    /** True when the key was not already under this guardrail (it is now). */
    assignKey: (row: { id: string; guardrail_id: string; key_hash: string; assigned_by: string | null; created_at: number }) =>
      assignKeyStmt.run(row).changes > 0,
    unassignKey: (guardrail_id: string, key_hash: string) => unassignKeyStmt.run({ guardrail_id, key_hash }).changes > 0,
    memberAssignments: (guardrailId: string) => withAccounts(memberAssignmentsStmt.all(guardrailId)),
    accountMemberAssignments: (accountId: string) =>
      withAccounts(membersAssignmentsStmt.all(JSON.stringify(services.accounts.members(accountId).map((m) => m.id)))),
    guardrailOfMember: (memberId: string) => memberGuardrailStmt.get(memberId)?.guardrail_id ?? null,
    assignMember: (row: { id: string; guardrail_id: string; member_id: string; assigned_by: string | null; created_at: number }) =>
      assignMemberStmt.run(row).changes > 0,
    unassignMember: (guardrail_id: string, member_id: string) => unassignMemberStmt.run({ guardrail_id, member_id }).changes > 0,
    /** Spend under a guardrail in a window: usage of the keys assigned to it and of the members assigned to it. */
    spentNanos: (guardrailId: string, since: number, now: number, includeByok: boolean) =>
      services.usage.spentByKeysOrMembers({
        keyHashes: assignedKeysStmt.all(guardrailId).map((row) => row.key_hash),
        memberIds: assignedMembersStmt.all(guardrailId).map((row) => row.member_id),
        since,
        now,
        includeByok,
      }),
  }
}

export type GuardrailsRepo = ReturnType<typeof createGuardrailsRepo>

/** Guardrails and their assignments; an account reset deletes the account's guardrails. */
export function guardrailsState(db: DB): StateOwner {
  const forget = [
    'DELETE FROM guardrail_key_assignments WHERE guardrail_id IN (SELECT id FROM guardrails WHERE account_id = ?)',
    'DELETE FROM guardrail_member_assignments WHERE guardrail_id IN (SELECT id FROM guardrails WHERE account_id = ?)',
    'DELETE FROM guardrails WHERE account_id = ?',
  ].map((sql) => db.prepare<[string]>(sql))
  return {
    name: 'guardrails',
    tables: ['guardrails', 'guardrail_key_assignments', 'guardrail_member_assignments'],
    resetAccount: (id) => forget.forEach((stmt) => stmt.run(id)),
  }
}
