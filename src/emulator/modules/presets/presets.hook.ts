// Applies presets to the text APIs: a request that names one (`model: "@preset/<slug>"`,
// `"<model>@preset/<slug>"`, or a `preset` field) gets its designated version written into its
// parsed body before anything else reads it: after authentication (the preset is the caller
// account's), before the fault rules (so a rule matches the model the preset chose) and before
// validation (so what the preset adds is checked with the rest). The journal keeps the body as sent.
import type { FastifyInstance } from 'fastify'
import type { EmulatorContext } from '../module.ts'
import { addRouteHook } from '../../http/route-hooks.ts'
import { presetReference, type PresetContent } from './presets-config.service.ts'
import { requestedPresetUnavailable } from './presets.errors.ts'
import type { PresetRead, PresetsRepo } from './presets.repo.ts'
import type { PresetConfig } from './presets.schemas.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Its body may name a preset, written in the words of its text surface (`config.text`). */
    presettable?: boolean
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** The content of the preset's designated version (nothing, for a preset without a version). */
function designatedContent(repo: PresetsRepo, row: PresetRead): PresetContent {
  const version = row.designated_version_id === null ? undefined : repo.versionById(row.designated_version_id)
  if (version === undefined) return { config: {}, system_prompt: null }
  return { config: JSON.parse(version.config) as PresetConfig, system_prompt: version.system_prompt }
}

export function installPresetsHook(app: FastifyInstance, ctx: EmulatorContext): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.presettable !== true) return
    const api = route.config.text
    const port = api === undefined ? undefined : ctx.services.text.ports.surface(api)?.preset
    if (port === undefined) throw new Error(`route ${route.url} is presettable, but presets cannot write a body of text surface ${api}`)
    addRouteHook(route, 'preValidation', async (request) => {
      const body = request.body
      if (!isObject(body) || request.auth === null) return
      const reference = presetReference(body)
      if (reference === null) return
      const repo = ctx.services.presets.repo
      const preset = repo.bySlug(request.auth.account.id, reference.slug)
      if (preset?.status !== 'active') throw requestedPresetUnavailable(reference.slug, reference.field, preset?.status ?? null)
      port.apply(body, designatedContent(repo, preset), reference)
    })
  })
}
