// Presets: named model configurations made from inference request bodies, versioned, and applied to
// the text APIs' requests that name them (the hook is installed on the gateway scope by build-app.ts).
import type { FastifyInstance } from 'fastify'
import { importRowError, uuidIds } from '../../core/lifecycle.ts'
import { defineModule } from '../module.ts'
import { presetsAdminRoutes } from './presets.admin.ts'
import { installPresetsHook } from './presets.hook.ts'
import { createPresetsRepo, presetsState, type PresetsRepo } from './presets.repo.ts'
import { presetsRoutes } from './presets.routes.ts'
import { MAX_SYSTEM_PROMPT_CHARS, PresetConfig, SLUG, SLUG_PATTERN } from './presets.schemas.ts'

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

export const presetsModule = defineModule({
  name: 'presets',
  needs: ['accounts', 'catalog', 'chat', 'messages', 'responses', 'workspaces'],
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
        },
        preset_versions: {
          json: { config: PresetConfig },
          check: (row, i) => {
            const prompt = row['system_prompt']
            if (typeof prompt === 'string' && prompt.length > MAX_SYSTEM_PROMPT_CHARS)
              throw importRowError('preset_versions', i, 'system_prompt', `must be at most ${MAX_SYSTEM_PROMPT_CHARS} characters`)
          },
        },
      },
      mints: [uuidIds('preset', 'presets'), uuidIds('preset-version', 'preset_versions')],
    },
  ],
  gateway: presetsRoutes,
  admin: presetsAdminRoutes,
})
