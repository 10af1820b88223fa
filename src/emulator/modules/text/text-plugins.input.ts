// The `plugins` list of a text request (chat, Responses, Messages), as the real document's union gives
// it: each entry an object whose `id` names one of the gateway's plugins, turned off by `enabled: false`.
// An unknown id or a wrong field is a 400 naming its place. `web` and `auto-router` are read by their own
// parsers (text-web.input.ts, text.input.ts); this reads the rest: response healing and context
// compression change the answer (text-plugins.service.ts); the others are accepted as the document
// describes them and their effect is listed in docs/gateway-api.md#plugins.
import { fieldError } from '../../core/errors.ts'
import { isObject } from './text.input.ts'

/** The plugin ids of the real document's union, in its order. */
export const PLUGIN_IDS = [
  'auto-router',
  'auto-beta-router',
  'moderation',
  'web',
  'web-fetch',
  'file-parser',
  'response-healing',
  'context-compression',
  'pareto-router',
  'fusion',
] as const

/** The most entries one request's list may have (a bound on work; ten ids exist). */
const MAX_PLUGINS = 32

const PDF_ENGINES = ['mistral-ocr', 'native', 'cloudflare-ai', 'pdf-text'] as const
const COMPRESSION_ENGINES = ['middle-out'] as const

/** What the plugins this module reads ask of the answer. */
export interface TextPlugins {
  /** `response-healing`: a JSON answer that does not parse is repaired before it is returned (not streamed). */
  healing: boolean
  /** `context-compression` (`middle-out`): a prompt past the context drops messages from its middle instead of a 400. */
  compression: boolean
}

export const NO_PLUGINS: TextPlugins = Object.freeze({ healing: false, compression: false })

function oneOf(value: unknown, allowed: readonly string[], field: string): void {
  if (value !== undefined && (typeof value !== 'string' || !allowed.includes(value))) throw fieldError(field, `must be one of ${allowed.join(', ')}`)
}

/** Checks every entry of `plugins` and reads those this module owns; absent or empty is no plugin. */
export function parsePlugins(plugins: unknown): TextPlugins {
  if (plugins === undefined || plugins === null) return NO_PLUGINS
  if (!Array.isArray(plugins)) throw fieldError('plugins', 'must be an array of plugin objects, each with an `id`')
  if (plugins.length > MAX_PLUGINS) throw fieldError('plugins', `must list at most ${MAX_PLUGINS} plugins`)
  const on = new Set<string>()
  plugins.forEach((plugin: unknown, i) => {
    const at = `plugins[${i}]`
    if (!isObject(plugin)) throw fieldError(at, 'must be a plugin object with an `id`')
    if (typeof plugin.id !== 'string' || !(PLUGIN_IDS as readonly string[]).includes(plugin.id))
      throw fieldError(`${at}.id`, `must be one of ${PLUGIN_IDS.join(', ')}`)
    if (plugin.enabled !== undefined && typeof plugin.enabled !== 'boolean') throw fieldError(`${at}.enabled`, 'must be a boolean')
    if (plugin.id === 'file-parser' && plugin.pdf !== undefined) {
      if (!isObject(plugin.pdf)) throw fieldError(`${at}.pdf`, 'must be an object with an optional `engine`')
      oneOf(plugin.pdf.engine, PDF_ENGINES, `${at}.pdf.engine`)
    }
    if (plugin.id === 'context-compression') oneOf(plugin.engine, COMPRESSION_ENGINES, `${at}.engine`)
    if (plugin.enabled !== false) on.add(plugin.id)
  })
  return { healing: on.has('response-healing'), compression: on.has('context-compression') }
}
