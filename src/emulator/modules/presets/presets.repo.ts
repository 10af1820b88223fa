// Prepared SQL for presets and their versions. The designated version is the latest one (the
// emulator designates every new version as it is made), so it is read, never stored twice.
import type { StateOwner } from '../../core/lifecycle.ts'
import type { DB } from '../../store/db.ts'

export type PresetStatus = 'active' | 'disabled' | 'archived'

export interface PresetRow {
  id: string
  account_id: string
  workspace_id: string
  slug: string
  name: string
  description: string | null
  status: PresetStatus
  creator_user_id: string | null
  created_at: number
  updated_at: number
  status_updated_at: number | null
}

/** A preset as read: with the id of its designated (latest) version, null when it has none. */
export interface PresetRead extends PresetRow {
  designated_version_id: string | null
}

export interface PresetVersionRow {
  id: string
  preset_id: string
  version: number
  creator_id: string
  system_prompt: string | null
  /** JSON object: the preset's fields (PresetConfig). */
  config: string
  created_at: number
  updated_at: number
}

export function createPresetsRepo(db: DB) {
  const inWorkspaceStmt = db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM presets WHERE account_id = ? AND workspace_id = ?')
  const read = `SELECT p.*, (SELECT v.id FROM preset_versions v WHERE v.preset_id = p.id ORDER BY v.version DESC LIMIT 1) AS designated_version_id
    FROM presets p`
  const insertStmt = db.prepare<PresetRow>(
    `INSERT INTO presets (id, account_id, workspace_id, slug, name, description, status, creator_user_id, created_at, updated_at, status_updated_at)
     VALUES (@id, @account_id, @workspace_id, @slug, @name, @description, @status, @creator_user_id, @created_at, @updated_at, @status_updated_at)`,
  )
  const touchStmt = db.prepare<{ id: string; updated_at: number }>('UPDATE presets SET updated_at = @updated_at WHERE id = @id')
  const bySlugStmt = db.prepare<{ account_id: string; slug: string }, PresetRead>(`${read} WHERE p.account_id = @account_id AND p.slug = @slug`)
  const listStmt = db.prepare<{ account_id: string; limit: number; offset: number }, PresetRead>(
    `${read} WHERE p.account_id = @account_id ORDER BY p.updated_at DESC, p.rowid DESC LIMIT @limit OFFSET @offset`,
  )
  const countStmt = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM presets WHERE account_id = ?')
  const countAllStmt = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM presets')
  // octet_length reads a value's size from its record header, not the text: a sum over thousands of
  // long prompts takes well under a millisecond.
  const versionBytes = 'IFNULL(SUM(IFNULL(octet_length(system_prompt), 0) + octet_length(config)), 0)'
  const accountVersionsStmt = db.prepare<[string], { n: number; bytes: number }>(
    `SELECT COUNT(*) AS n, ${versionBytes} AS bytes FROM preset_versions WHERE preset_id IN (SELECT id FROM presets WHERE account_id = ?)`,
  )
  const allVersionsStmt = db.prepare<[], { n: number; bytes: number }>(`SELECT COUNT(*) AS n, ${versionBytes} AS bytes FROM preset_versions`)

  const insertVersionStmt = db.prepare<PresetVersionRow>(
    `INSERT INTO preset_versions (id, preset_id, version, creator_id, system_prompt, config, created_at, updated_at)
     VALUES (@id, @preset_id, @version, @creator_id, @system_prompt, @config, @created_at, @updated_at)`,
  )
  const versionByIdStmt = db.prepare<[string], PresetVersionRow>('SELECT * FROM preset_versions WHERE id = ?')
  const versionStmt = db.prepare<{ preset_id: string; version: number }, PresetVersionRow>(
    'SELECT * FROM preset_versions WHERE preset_id = @preset_id AND version = @version',
  )
  const versionsStmt = db.prepare<{ preset_id: string; limit: number; offset: number }, PresetVersionRow>(
    'SELECT * FROM preset_versions WHERE preset_id = @preset_id ORDER BY version LIMIT @limit OFFSET @offset',
  )
  const versionCountStmt = db.prepare<[string], { n: number; last: number | null }>(
    'SELECT COUNT(*) AS n, MAX(version) AS last FROM preset_versions WHERE preset_id = ?',
  )

  return {
    /** Rows in a workspace: a workspace that holds any cannot be deleted. */
    countInWorkspace: (accountId: string, workspaceId: string) => inWorkspaceStmt.get(accountId, workspaceId)!.n,
    insert: (row: PresetRow) => void insertStmt.run(row),
    touch: (id: string, updated_at: number) => void touchStmt.run({ id, updated_at }),
    bySlug: (account_id: string, slug: string) => bySlugStmt.get({ account_id, slug }),
    list: (account_id: string, limit: number, offset: number) => listStmt.all({ account_id, limit, offset }),
    count: (account_id: string) => countStmt.get(account_id)!.n,
    /** Presets of every account together. */
    countAll: () => countAllStmt.get()!.n,
    /** The versions of an account's presets (every account's, for null), and the bytes of their system prompts and settings. */
    versionTotals: (account_id: string | null) => (account_id === null ? allVersionsStmt.get()! : accountVersionsStmt.get(account_id)!),
    insertVersion: (row: PresetVersionRow) => void insertVersionStmt.run(row),
    versionById: (id: string) => versionByIdStmt.get(id),
    version: (preset_id: string, version: number) => versionStmt.get({ preset_id, version }),
    versions: (preset_id: string, limit: number, offset: number) => versionsStmt.all({ preset_id, limit, offset }),
    /** How many versions the preset has, and the highest number among them (null for none). */
    versionCount: (preset_id: string) => versionCountStmt.get(preset_id)!,
  }
}

export type PresetsRepo = ReturnType<typeof createPresetsRepo>

/** Presets and their versions; an account reset deletes the account's presets. */
export function presetsState(db: DB): StateOwner {
  const forget = [
    'DELETE FROM preset_versions WHERE preset_id IN (SELECT id FROM presets WHERE account_id = ?)',
    'DELETE FROM presets WHERE account_id = ?',
  ].map((sql) => db.prepare<[string]>(sql))
  return {
    name: 'presets',
    tables: ['presets', 'preset_versions'],
    resetAccount: (id) => forget.forEach((stmt) => stmt.run(id)),
  }
}
