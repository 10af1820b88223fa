// Presets: named model configurations made from inference request bodies, versioned, and applied to
// the text APIs' requests that name them (the hook is installed on the gateway scope by build-app.ts).
import type { FastifyInstance } from 'fastify'
import { checkBounds, importRowError, textBytes, uuidIds } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { presetsAdminRoutes } from './presets.admin.ts'
import { installPresetsHook } from './presets.hook.ts'
import { createPresetsRepo, presetsState, type PresetsRepo } from './presets.repo.ts'
import { presetsRoutes } from './presets.routes.ts'
import {
  MAX_ACCOUNT_PRESET_BYTES,
  MAX_ACCOUNT_VERSIONS,
  MAX_PRESETS,
  MAX_SYSTEM_PROMPT_CHARS,
  MAX_TOTAL_PRESET_BYTES,
  MAX_TOTAL_PRESETS,
  MAX_TOTAL_VERSIONS,
  MAX_VERSIONS,
  PresetConfig,
  SLUG,
  SLUG_PATTERN,
} from './presets.schemas.ts'

export interface PresetsService {
  repo: PresetsRepo
  /** Applies presets to the text APIs' routes of this scope (requests naming `@preset/<slug>`). */
  install(app: FastifyInstance): void
}

declare module '../module.ts' {
  interface Services {
    presets: PresetsService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  { what: 'Presets per account', value: MAX_PRESETS, unit: 'items', beyond: '400 naming the limit' },
  { what: 'Presets in all', value: MAX_TOTAL_PRESETS, unit: 'items', beyond: '400 naming the limit' },
  { what: 'Versions of one preset', value: MAX_VERSIONS, unit: 'items', beyond: '400 naming the limit' },
  { what: "Versions of all of one account's presets", value: MAX_ACCOUNT_VERSIONS, unit: 'items', beyond: '400 naming the limit' },
  { what: 'Versions in all', value: MAX_TOTAL_VERSIONS, unit: 'items', beyond: '400 naming the limit' },
  { what: "Characters of a preset's system prompt", value: MAX_SYSTEM_PROMPT_CHARS, unit: 'characters', beyond: '400 naming it' },
  {
    what: "Bytes of one account's prompts and settings, every version",
    value: MAX_ACCOUNT_PRESET_BYTES,
    unit: 'bytes',
    beyond: '400 naming the used, new and limit bytes',
  },
  { what: "Bytes of every account's prompts and settings", value: MAX_TOTAL_PRESET_BYTES, unit: 'bytes', beyond: '400 naming the limit' },
]

export const presetsModule = defineModule({
  name: 'presets',
  limits: LIMITS,
  needs: ['accounts', 'catalog', 'text', 'workspaces'],
  create: (ctx) => {
    const repo = createPresetsRepo(ctx.db)
    ctx.services.workspaces.holds('presets', repo.countInWorkspace)
    return { repo, install: (app) => installPresetsHook(app, ctx) }
  },
  state: (ctx) => [
    {
      ...presetsState(ctx.db),
      imports: {
        // What the presets API itself would accept: a slug a request can name, a bounded system prompt.
        presets: {
          check: (row, i) => {
            if (typeof row['slug'] !== 'string' || !SLUG.test(row['slug'])) throw importRowError('presets', i, 'slug', `must match ${SLUG_PATTERN}`)
          },
          checkAll: (rows) =>
            checkBounds('presets', rows, [
              { most: MAX_PRESETS, groupOf: (row) => row['account_id'], column: 'account_id', issue: `is past the ${MAX_PRESETS} presets one account keeps` },
              { most: MAX_TOTAL_PRESETS, column: null, issue: `is past the ${MAX_TOTAL_PRESETS} presets the emulator keeps in all` },
            ]),
        },
        preset_versions: {
          json: { config: PresetConfig },
          check: (row, i) => {
            const prompt = row['system_prompt']
            if (typeof prompt === 'string' && prompt.length > MAX_SYSTEM_PROMPT_CHARS)
              throw importRowError('preset_versions', i, 'system_prompt', `must be at most ${MAX_SYSTEM_PROMPT_CHARS} characters`)
          },
          checkAll: (rows, tables) => {
            // A version's account is its preset's.
            const presets = (Array.isArray(tables['presets']) ? tables['presets'] : []) as Array<Record<string, unknown>>
            const accountOf = new Map(presets.map((preset) => [preset['id'], preset['account_id']]))
            const account = (row: Readonly<Record<string, unknown>>) => accountOf.get(row['preset_id'])
            const bytes = (row: Readonly<Record<string, unknown>>) => textBytes(row['system_prompt']) + textBytes(row['config'])
            checkBounds('preset_versions', rows, [
              { most: MAX_VERSIONS, groupOf: (row) => row['preset_id'], column: 'preset_id', issue: `is past the ${MAX_VERSIONS} versions one preset keeps` },
              {
                most: MAX_ACCOUNT_VERSIONS,
                groupOf: account,
                column: 'preset_id',
                issue: `is past the ${MAX_ACCOUNT_VERSIONS} preset versions one account keeps`,
              },
              {
                most: MAX_ACCOUNT_PRESET_BYTES,
                groupOf: account,
                weightOf: bytes,
                column: null,
                issue: `is past the ${MAX_ACCOUNT_PRESET_BYTES} bytes of preset system prompts and settings one account keeps`,
              },
              { most: MAX_TOTAL_VERSIONS, column: null, issue: `is past the ${MAX_TOTAL_VERSIONS} preset versions the emulator keeps in all` },
              {
                most: MAX_TOTAL_PRESET_BYTES,
                weightOf: bytes,
                column: null,
                issue: `is past the ${MAX_TOTAL_PRESET_BYTES} bytes of preset system prompts and settings the emulator keeps in all`,
              },
            ])
          },
        },
      },
      mints: [uuidIds('preset', 'presets'), uuidIds('preset-version', 'preset_versions')],
    },
  ],
  gateway: presetsRoutes,
  admin: presetsAdminRoutes,
})
