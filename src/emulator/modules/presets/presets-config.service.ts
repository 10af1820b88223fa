// What a preset keeps of a request body, and how it goes back into one. Each API has its own names
// for the same things (a chat's system messages, the Messages API's `system`, the Responses API's
// `instructions`; `max_tokens`, `max_output_tokens`; `stop`, `stop_sequences`; `reasoning`,
// `thinking`), so a preset is kept in chat completions' names and written into a body in that body's
// own: a preset made from one API applies to the other two. Each API reads its own body into a preset
// and writes one into its body (`fromChat`, `toChat` and their kin, in the surface's folder, registered
// with the text engine as its preset port); the shared pieces are here.
//
// Applying is a shallow merge where the request wins: a field the request sets (not null) is kept, a
// field it leaves out comes from the preset. The system prompt is the exception: the preset's comes
// first and the request's own follows it, as both are instructions.
import { fieldError } from '../../core/errors.ts'
import { MAX_SYSTEM_PROMPT_CHARS, type PresetConfig, type SamplingName } from './presets.schemas.ts'

/** What a version holds: its fields and its system prompt. */
export interface PresetContent {
  config: PresetConfig
  system_prompt: string | null
}

type Body = Record<string, unknown>

export const present = (value: unknown): boolean => value !== undefined && value !== null

/** The object without its absent (undefined or null) fields. */
export function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => present(v))) as Partial<T>
}

export function systemPrompt(text: string, field: string): string | null {
  if (text.length > MAX_SYSTEM_PROMPT_CHARS) throw fieldError(field, `must be at most ${MAX_SYSTEM_PROMPT_CHARS} characters for a preset's system prompt`)
  return text === '' ? null : text
}

/** Fields named alike in every API: the model, fallbacks, provider preferences, sampling. */
export function common(body: Body, sampling: readonly SamplingName[]): PresetConfig {
  const config: PresetConfig = {}
  if (typeof body.model === 'string') config.model = body.model
  if (Array.isArray(body.models)) config.models = body.models as string[]
  if (present(body.provider)) config.provider = body.provider as PresetConfig['provider']
  for (const name of sampling) if (typeof body[name] === 'number') config[name] = body[name]
  return config
}

export function refuseNestedPreset(model: string | undefined): void {
  if (model !== undefined && parsePresetModel(model) !== null) throw fieldError('model', 'must name a model: a preset cannot name another preset')
}

// ---- Naming a preset in a request ----------------------------------------------------------------

export const PRESET_PREFIX = '@preset/'

/** `@preset/<slug>` or `<model>@preset/<slug>`: the slug, and the model named beside it (null for none). */
export function parsePresetModel(model: string): { slug: string; model: string | null } | null {
  const at = model.indexOf(PRESET_PREFIX)
  if (at === -1) return null
  return { slug: model.slice(at + PRESET_PREFIX.length), model: at === 0 ? null : model.slice(0, at) }
}

/** How a request names a preset: where (the field to name in an error), its slug, and the model it fixes. */
export interface PresetReference {
  field: 'model' | 'preset'
  slug: string
  /** The model the request fixes itself (`<model>@preset/<slug>`, or `model` beside `preset`); null lets the preset choose. */
  model: string | null
}

/** The preset a request body names, if any: in `model` (`@preset/<slug>`, `<model>@preset/<slug>`) or in `preset`. */
export function presetReference(body: Body): PresetReference | null {
  if (typeof body.model === 'string') {
    const named = parsePresetModel(body.model)
    if (named !== null) {
      if (named.slug === '') throw fieldError('model', `must name a preset after ${PRESET_PREFIX}`)
      if (named.model === '') throw fieldError('model', `must name a model before ${PRESET_PREFIX}`)
      return { field: 'model', ...named }
    }
  }
  if (body.preset === undefined || body.preset === null) return null
  if (typeof body.preset !== 'string' || body.preset === '') throw fieldError('preset', 'must be the slug of a preset')
  const slug = body.preset.startsWith(PRESET_PREFIX) ? body.preset.slice(PRESET_PREFIX.length) : body.preset
  return { field: 'preset', slug, model: typeof body.model === 'string' ? body.model : null }
}

// ---- Applying a preset to a request --------------------------------------------------------------
// Each surface writes a preset into its own bodies (its preset port's `apply`, beside its `read`), from
// these pieces, in this order: `applyShared` (the model, `preset` dropped, provider, sampling), then its
// own fields, then the system prompt.

/** Sets `field` from the preset where the request leaves it (and each of `alternatives`) out. */
export function fill(body: Body, field: string, value: unknown, alternatives: readonly string[] = []): void {
  if (value === undefined || present(body[field]) || alternatives.some((a) => present(body[a]))) return
  body[field] = value
}

/** The model and fallback models: what the request fixes, or else the preset's. */
function applyModel(body: Body, config: PresetConfig, reference: PresetReference, needsModel: boolean): void {
  if (reference.model !== null) {
    body.model = reference.model
    return
  }
  if (config.model === undefined && config.models === undefined)
    throw fieldError(reference.field, `names preset ${reference.slug}, which has no model: name one as <model>${PRESET_PREFIX}${reference.slug}`)
  if (config.models !== undefined && !present(body.models)) body.models = config.models
  // A surface that needs `model` (the Messages API) takes the first fallback; the others take `models` alone.
  const model = config.model ?? (needsModel ? config.models?.[0] : undefined)
  if (model !== undefined) body.model = model
  else delete body.model
}

/**
 * What every surface writes alike, in place: the model (the request's, or the preset's), the `preset`
 * field dropped, the provider and the sampling fields the surface takes. The request's own fields win.
 */
export function applyShared(body: Body, content: PresetContent, reference: PresetReference, sampling: readonly SamplingName[], needsModel = false): void {
  const { config } = content
  applyModel(body, config, reference, needsModel)
  delete body.preset
  fill(body, 'provider', config.provider)
  for (const name of sampling) fill(body, name, config[name])
}

/** The preset's system prompt before the request's own string `field` (`instructions`, `system`), or as it. */
export function prependToField(body: Body, field: string, prompt: string): boolean {
  const own = body[field]
  if (!present(own) || own === '') body[field] = prompt
  else if (typeof own === 'string') body[field] = `${prompt}\n\n${own}`
  else return false
  return true
}
