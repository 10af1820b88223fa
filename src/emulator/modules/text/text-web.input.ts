// Web search as a chat request asks for it: the `web` plugin (`plugins: [{id: "web", max_results?}]`, off with
// `enabled: false`) or a web search server tool (`{type: "openrouter:web_search", parameters: {max_results?}}` or a
// shorthand spelling such as `web_search`). The model's `:online` variant is read by the engine. A bad
// `max_results` is a 400 naming its place; the search itself is text-web.service.ts's.
import { fieldError } from '../../core/errors.ts'
import { isObject } from './text.input.ts'

/** Results of one search when the request does not say (the real document's default). */
export const WEB_DEFAULT_RESULTS = 5
/** The most results one search may ask for here (the document's Perplexity bound; other engines have none written). */
export const WEB_MAX_RESULTS = 20

// Anthropic's versioned web search tools (Messages) search too: their `max_uses` caps searches, and one is made.
const WEB_TOOL_TYPES = new Set([
  'openrouter:web_search',
  'web_search',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'web_search_2025_08_26',
  'web_search_20250305',
  'web_search_20260209',
])

/** A web search one request asks for: the results it returns, and whether a server tool asked (not the plugin). */
export interface WebSearchAsk {
  results: number
  tool: boolean
}

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
export function parseWebSearch(plugins: unknown, tools: unknown): WebSearchAsk | null {
  if (Array.isArray(plugins)) {
    const at = plugins.findIndex((p) => isObject(p) && p.id === 'web')
    if (at !== -1) {
      const plugin = plugins[at] as Record<string, unknown>
      if (plugin.enabled !== undefined && typeof plugin.enabled !== 'boolean') throw fieldError(`plugins[${at}].enabled`, 'must be a boolean')
      const results = maxResults(plugin.max_results, `plugins[${at}].max_results`)
      return plugin.enabled === false ? null : { results, tool: false }
    }
  }
  if (Array.isArray(tools)) {
    const at = tools.findIndex((t) => isObject(t) && typeof t.type === 'string' && WEB_TOOL_TYPES.has(t.type))
    if (at !== -1) {
      const tool = tools[at] as Record<string, unknown>
      if (tool.parameters === undefined || tool.parameters === null) return { results: WEB_DEFAULT_RESULTS, tool: true }
      if (!isObject(tool.parameters)) throw fieldError(`tools[${at}].parameters`, 'must be an object')
      return { results: maxResults(tool.parameters.max_results, `tools[${at}].parameters.max_results`), tool: true }
    }
  }
  return null
}

/**
 * The engine's web search fields for a search asked (or none): a search tool is a tool the model calls,
 * so `tool_choice` "none" (`{type: "none"}` on Messages), as the request says it, leaves it uncalled; the
 * plugin and `:online` search whatever the choice.
 */
export function webSearchFields(search: WebSearchAsk | null, toolChoice: unknown): { web?: true; webResults?: number; webTool?: boolean } {
  const none = toolChoice === 'none' || (isObject(toolChoice) && toolChoice.type === 'none')
  if (search === null || (search.tool && none)) return {}
  return { web: true, webResults: search.results, webTool: search.tool }
}
