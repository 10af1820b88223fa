// Presets as the API shows them, and a new version made (and designated) in one transaction.
import { toIso } from '../../core/clock.ts'
import { textBytes } from '../../core/lifecycle.ts'
import type { AuthContext } from '../caller.ts'
import type { EmulatorContext } from '../module.ts'
import type { PresetContent } from './presets-config.service.ts'
import { presetBytesFull, presetNotFound, tooManyPresets, tooManyPresetsInAll, tooManyVersions, tooManyVersionsIn } from './presets.errors.ts'
import type { PresetRead, PresetRow, PresetsRepo, PresetVersionRow } from './presets.repo.ts'
import {
  MAX_ACCOUNT_PRESET_BYTES,
  MAX_ACCOUNT_VERSIONS,
  MAX_PRESETS,
  MAX_TOTAL_PRESET_BYTES,
  MAX_TOTAL_PRESETS,
  MAX_TOTAL_VERSIONS,
  MAX_VERSIONS,
  type PresetConfig,
  type PresetObject,
  type PresetVersionObject,
  type PresetWithVersion,
} from './presets.schemas.ts'

export const presetView = (row: PresetRead): PresetObject => ({
  id: row.id,
  creator_user_id: row.creator_user_id,
  workspace_id: row.workspace_id,
  name: row.name,
  slug: row.slug,
  description: row.description,
  status: row.status,
  designated_version_id: row.designated_version_id,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
  status_updated_at: row.status_updated_at === null ? null : toIso(row.status_updated_at),
})

export const versionView = (row: PresetVersionRow): PresetVersionObject => ({
  id: row.id,
  preset_id: row.preset_id,
  creator_id: row.creator_id,
  version: row.version,
  system_prompt: row.system_prompt,
  config: JSON.parse(row.config) as PresetConfig,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
})

/** The preset with its designated (latest) version inline. */
export function presetWithVersion(repo: PresetsRepo, row: PresetRead): PresetWithVersion {
  const designated = row.designated_version_id === null ? undefined : repo.versionById(row.designated_version_id)
  return { ...presetView(row), designated_version: designated === undefined ? null : versionView(designated) }
}

/** The caller's preset of this slug; another account's is as unknown as one that does not exist. */
export function requirePreset(repo: PresetsRepo, accountId: string, slug: string): PresetRead {
  const row = repo.bySlug(accountId, slug)
  if (!row) throw presetNotFound(slug)
  return row
}

/**
 * Whether one more version of `bytes` fits what the account's presets, and every account's, hold
 * together (versions and bytes); call inside the transaction that adds it, so two cannot both fit.
 */
function checkRoom(repo: PresetsRepo, accountId: string, bytes: number): void {
  const bounds = [
    { scope: 'account', totals: repo.versionTotals(accountId), versions: MAX_ACCOUNT_VERSIONS, bytes: MAX_ACCOUNT_PRESET_BYTES },
    { scope: 'emulator', totals: repo.versionTotals(null), versions: MAX_TOTAL_VERSIONS, bytes: MAX_TOTAL_PRESET_BYTES },
  ] as const
  for (const bound of bounds) {
    if (bound.totals.n >= bound.versions) throw tooManyVersionsIn(bound.scope, bound.versions)
    if (bound.totals.bytes + bytes > bound.bytes) throw presetBytesFull(bound.scope, bound.totals.bytes, bytes, bound.bytes)
  }
}

/**
 * Makes the next version of the caller's preset `slug` (the preset too, the first time) and designates
 * it, in one transaction. The creator is the member whose key made it (the account's first member for
 * a key that has none).
 */
export function createVersion(ctx: EmulatorContext, repo: PresetsRepo, caller: AuthContext, slug: string, content: PresetContent): PresetWithVersion {
  const { account, key } = caller
  const creator = key.creator_user_id ?? ctx.services.accounts.members(account.id)[0]?.id ?? account.id
  const config = JSON.stringify(content.config)
  const bytes = textBytes(content.system_prompt) + textBytes(config)
  return ctx.db
    .transaction(() => {
      const now = ctx.clock.now()
      let preset = repo.bySlug(account.id, slug)
      if (!preset) {
        if (repo.count(account.id) >= MAX_PRESETS) throw tooManyPresets(MAX_PRESETS)
        if (repo.countAll() >= MAX_TOTAL_PRESETS) throw tooManyPresetsInAll(MAX_TOTAL_PRESETS)
      }
      const { n, last } = preset ? repo.versionCount(preset.id) : { n: 0, last: null }
      if (n >= MAX_VERSIONS) throw tooManyVersions(slug, MAX_VERSIONS)
      checkRoom(repo, account.id, bytes)
      if (!preset) {
        const row: PresetRow = {
          id: ctx.ids.uuid(ctx.ids.next('preset')),
          account_id: account.id,
          // Presets are made in the account's default workspace: the create bodies name none.
          workspace_id: ctx.services.workspaces.defaultFor(account.id),
          slug,
          name: slug,
          description: null,
          status: 'active',
          creator_user_id: creator,
          created_at: now,
          updated_at: now,
          status_updated_at: null,
        }
        repo.insert(row)
        preset = { ...row, designated_version_id: null }
      }
      const version: PresetVersionRow = {
        id: ctx.ids.uuid(ctx.ids.next('preset-version')),
        preset_id: preset.id,
        version: (last ?? 0) + 1,
        creator_id: creator,
        system_prompt: content.system_prompt,
        config,
        created_at: now,
        updated_at: now,
      }
      repo.insertVersion(version)
      repo.touch(preset.id, now)
      return { ...presetView({ ...preset, updated_at: now, designated_version_id: version.id }), designated_version: versionView(version) }
    })
    .immediate()
}
