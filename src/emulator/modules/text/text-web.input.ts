// Web search as a chat request asks for it: the `web` plugin (`plugins: [{id: "web", max_results?}]`, off with
// `enabled: false`) or a web search server tool (`{type: "openrouter:web_search", parameters: {max_results?}}` or a
// shorthand spelling such as `web_search`). The model's `:online` variant is read by the engine. A bad
// `max_results` is a 400 naming its place; the search itself is text-web.service.ts's.
import { fieldError } from '../../core/errors.ts'

/** Results of one search when the request does not say (the real document's default). */
export const WEB_DEFAULT_RESULTS = 5
/** The most results one search may ask for here (the document's Perplexity bound; other engines have none written). */
export const WEB_MAX_RESULTS = 20

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

const WEB_TOOL_TYPES = new Set(['openrouter:web_search', 'web_search', 'web_search_preview', 'web_search_preview_2025_03_11', 'web_search_2025_08_26'])

function maxResults(value: unknown, field: string): number {
  if (value === undefined || value === null) return WEB_DEFAULT_RESULTS
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > WEB_MAX_RESULTS)
    throw fieldError(field, `must be an integer from 1 to ${WEB_MAX_RESULTS} (results per search; ${WEB_DEFAULT_RESULTS} when absent)`)
  return value
}

/**
 * The results one search of this request returns, or null when it asks for no web search. The plugin
 * decides where both are given; its shape is checked only where its id is `web`.
 */
export function parseWebSearch(plugins: unknown, tools: unknown): number | null {
  if (Array.isArray(plugins)) {
    const at = plugins.findIndex((p) => isObject(p) && p.id === 'web')
    if (at !== -1) {
      const plugin = plugins[at] as Record<string, unknown>
      if (plugin.enabled !== undefined && typeof plugin.enabled !== 'boolean') throw fieldError(`plugins[${at}].enabled`, 'must be a boolean')
      const results = maxResults(plugin.max_results, `plugins[${at}].max_results`)
      return plugin.enabled === false ? null : results
    }
  }
  if (Array.isArray(tools)) {
    const at = tools.findIndex((t) => isObject(t) && typeof t.type === 'string' && WEB_TOOL_TYPES.has(t.type))
    if (at !== -1) {
      const tool = tools[at] as Record<string, unknown>
      if (tool.parameters === undefined || tool.parameters === null) return WEB_DEFAULT_RESULTS
      if (!isObject(tool.parameters)) throw fieldError(`tools[${at}].parameters`, 'must be an object')
      return maxResults(tool.parameters.max_results, `tools[${at}].parameters.max_results`)
    }
  }
  return null
}
