// How model ids resolve (catalog-resolve.service.ts), against the bundled catalog: aliases, clients'
// names, ~latest families, variants and what refuses them, the router's determinism, generic models,
// and the bounded "did you mean".
import { findProvider } from '@pydantic/genai-prices'
import { describe, expect, it } from 'vitest'
import { BUNDLED_FIXTURES } from '../../../src/emulator/config.ts'
import { ApiError } from '../../../src/emulator/core/errors.ts'
import { buildCatalog, loadCatalogDocument } from '../../../src/emulator/modules/catalog/catalog-index.service.ts'
import {
  boundedDistance,
  GENERIC_PRICES,
  nameCandidates,
  resolveModel,
  suggestModels,
  SUGGEST_MAX_ID_CHARS,
  tryResolveModel,
  type ResolveOptions,
  type RouterInput,
} from '../../../src/emulator/modules/catalog/catalog-resolve.service.ts'

const catalog = buildCatalog(loadCatalogDocument(BUNDLED_FIXTURES))
const ask: RouterInput = { content: 'Tell me about lighthouses', seed: null, needsTools: false, allowed: [], excluded: [] }
const text: ResolveOptions = { kind: 'text', seed: 1, generic: false, router: ask }
const resolved = (id: string, options: Partial<ResolveOptions> = {}) => tryResolveModel(catalog, id, { ...text, ...options })
const served = (id: string) => resolved(id)?.model.id

describe('names the clients send', () => {
  it.each([
    // Claude Code with no model set, and Anthropic's API names: versions with dashes, dated or not.
    ['claude-opus-5-5', 'anthropic/claude-opus-5.5'],
    ['claude-sonnet-4-5', 'anthropic/claude-sonnet-4.5'],
    ['claude-sonnet-4-5-20250929', 'anthropic/claude-sonnet-4.5'],
    ['claude-opus-4-1-20250805', 'anthropic/claude-opus-4.1'],
    ['claude-haiku-4-5', 'anthropic/claude-haiku-4.5'],
    ['claude-sonnet-4-0', 'anthropic/claude-sonnet-4'],
    ['claude-sonnet-4-20250514', 'anthropic/claude-sonnet-4'],
    ['claude-3-5-sonnet-20241022', 'anthropic/claude-3.5-sonnet'],
    ['claude-3-7-sonnet-latest', 'anthropic/claude-3.7-sonnet'],
    // Codex CLI's default (the first listed model of its bundled models.json), and OpenAI's names.
    ['gpt-5.6-sol', 'openai/gpt-5.6-sol'],
    ['gpt-5-codex', 'openai/gpt-5'],
    ['gpt-4o', 'openai/gpt-4o'],
    ['o4-mini', 'openai/o4-mini'],
    ['text-embedding-3-small', 'openai/text-embedding-3-small'],
  ])('%s is %s', (id, model) => {
    expect(served(id)).toBe(model)
    expect(resolved(id)!.via).toBe('name')
  })

  it('tries the author, the dotted version, the version without .0, then the id without its date', () => {
    expect(nameCandidates('claude-sonnet-4-0-20250514')).toEqual([
      'anthropic/claude-sonnet-4-0-20250514',
      'anthropic/claude-sonnet-4.0',
      'anthropic/claude-sonnet-4',
      'anthropic/claude-sonnet-4-0',
    ])
    expect(nameCandidates('unknownvendor-model')).toEqual([])
    expect(nameCandidates('x'.repeat(SUGGEST_MAX_ID_CHARS + 1))).toEqual([])
  })
})

describe('every id of the source', () => {
  it('resolves each of the real list’s ids (bare ones as their author’s model, aliases as theirs) to a model of the catalog', () => {
    const source = findProvider({ providerId: 'openrouter' })!.models
    const ids = source.map((m) => m.id)
    expect(ids.length).toBe(701)
    const unresolved = ids.filter((id) => resolved(id) === undefined)
    expect(unresolved).toEqual([])
    // And every other id the source matches a model by (its `equals`: dated, `:beta`, bare aliases), but
    // two bare aliases of openai/o1 the catalog keeps no alias for (docs/models.md).
    type Match = { equals?: string; or?: Match[]; and?: Match[] }
    const equals = (match: Match): string[] => [
      ...(match.equals ? [match.equals] : []),
      ...(match.or ?? []).flatMap(equals),
      ...(match.and ?? []).flatMap(equals),
    ]
    const others = source.flatMap((m) => equals(m.match as Match))
    expect(others.length).toBeGreaterThan(800)
    expect(others.filter((id) => resolved(id) === undefined)).toEqual(['o1-preview', 'o1-preview-2024-09-12'])
    expect(served('gpt-3.5-turbo-0125')).toBe('openai/gpt-3.5-turbo')
    expect(resolved('mythalion-13b')).toMatchObject({ model: { id: 'pygmalionai/mythalion-13b' }, via: 'name' })
    expect(served('claude-3.5-sonnet')).toBe('anthropic/claude-3.5-sonnet')
  })
})

describe('aliases and families', () => {
  it("serves a dated id or :beta as the model the catalog's aliases name", () => {
    expect(resolved('anthropic/claude-sonnet-4.5:beta')).toMatchObject({ model: { id: 'anthropic/claude-sonnet-4.5' }, via: 'alias' })
    expect(served('anthropic/claude-haiku-4.5-20251001')).toBe('anthropic/claude-haiku-4.5')
    expect(served('openai/gpt-5.4-20260305')).toBe('openai/gpt-5.4')
    // A date the aliases do not list (the source matches any: ^openai/gpt-5\.6-sol-\d{8}$).
    expect(served('openai/gpt-5.6-sol-20261201')).toBe('openai/gpt-5.6-sol')
  })

  it('serves ~author/x-latest as the family member the source prices it as, the highest version first', () => {
    expect(resolved('~anthropic/claude-opus-latest')).toMatchObject({ model: { id: 'anthropic/claude-opus-5.5' }, via: 'latest' })
    expect(served('~openai/gpt-latest')).toBe('openai/gpt-5.5')
    expect(served('~openai/gpt-mini-latest')).toBe('openai/gpt-5.4-mini')
    expect(served('~google/gemini-pro-latest')).toBe('google/gemini-3.1-pro-preview')
    expect(served('~anthropic/claude-haiku-latest')).toBe('anthropic/claude-haiku-4.5')
    // Not in the list: no family is made up.
    expect(resolved('~openai/gpt-nano-latest')).toBeUndefined()
  })
})

describe('variants', () => {
  it('sorts providers (:nitro, :floor, :exacto) and turns web search (:online) and reasoning (:thinking) on', () => {
    expect(resolved('openai/gpt-4o:nitro')).toMatchObject({ model: { id: 'openai/gpt-4o' }, sort: 'throughput', web: false })
    expect(resolved('openai/gpt-4o:floor')!.sort).toBe('price')
    expect(resolved('openai/gpt-4o:exacto')!.sort).toBe('exacto')
    expect(resolved('openai/gpt-4o:online')).toMatchObject({ model: { id: 'openai/gpt-4o' }, web: true, sort: null })
    expect(resolved('anthropic/claude-opus-5.5:thinking')).toMatchObject({ model: { id: 'anthropic/claude-opus-5.5' }, thinking: true })
    // On any id that resolves: a client's name, an alias.
    expect(resolved('claude-sonnet-4-5:online')).toMatchObject({ model: { id: 'anthropic/claude-sonnet-4.5' }, web: true })
    expect(resolved('anthropic/claude-sonnet-4.5:beta:nitro')?.sort).toBe('throughput')
    // A listed :thinking id is its own model (or an alias), and still turns reasoning on.
    expect(resolved('anthropic/claude-3.7-sonnet:thinking')).toMatchObject({ model: { id: 'anthropic/claude-3.7-sonnet' }, thinking: true })
  })

  it('takes :free only where the catalog lists the free model, and refuses unknown suffixes and :thinking without reasoning', () => {
    expect(served('google/gemma-3-27b-it:free')).toBe('google/gemma-3-27b-it:free')
    for (const id of ['openai/gpt-4o:free', 'openai/gpt-4o:bogus', 'openai/gpt-4o:thinking', 'nobody/nothing:online', 'openai/gpt-4o:'])
      expect(resolved(id), id).toBeUndefined()
    expect(() => resolveModel(catalog, 'openai/gpt-4o:bogus', text)).toThrow('openai/gpt-4o:bogus is not a valid model ID')
  })
})

describe('openrouter/auto', () => {
  const route = (router: Partial<RouterInput>, seed = 1) => resolved('openrouter/auto', { seed, router: { ...ask, ...router } })!

  it('chooses the same model for the same request, and answers with it', () => {
    const first = route({})
    expect(first).toMatchObject({ via: 'router', router: 'openrouter/auto', asked: 'openrouter/auto' })
    expect(first.model.id).not.toBe('openrouter/auto')
    expect(first.model.architecture.output_modalities).toContain('text')
    expect(route({}).model.id).toBe(first.model.id)
  })

  it("spreads over the models with the emulator's seed, the request's seed and its content", () => {
    const bySeed = new Set(Array.from({ length: 12 }, (_, seed) => route({}, seed).model.id))
    const byRequestSeed = new Set(Array.from({ length: 12 }, (_, seed) => route({ seed }).model.id))
    const byContent = new Set(Array.from({ length: 12 }, (_, i) => route({ content: `question ${i}` }).model.id))
    for (const chosen of [bySeed, byRequestSeed, byContent]) expect(chosen.size).toBeGreaterThan(6)
  })

  it("keeps to the plugin's patterns and to models with tools when the request has tools", () => {
    for (let seed = 0; seed < 10; seed++) {
      expect(route({ seed, allowed: ['anthropic/*'], excluded: ['anthropic/claude-opus-*'] }).model.id).toMatch(/^anthropic\/claude-(?!opus)/)
      expect(route({ seed, allowed: ['openai/gpt-4o'] }).model.id).toBe('openai/gpt-4o')
      expect(route({ seed, needsTools: true }).model.supported_parameters).toContain('tools')
    }
    const none = () => route({ allowed: ['nobody/*'] })
    expect(none).toThrow(ApiError)
    expect(none).toThrow("No models match the auto-router plugin's allowed_models and excluded_models")
  })

  it('is no model on a route of another kind', () => {
    expect(resolved('openrouter/auto', { kind: 'embeddings' })).toBeUndefined()
    expect(resolved('openrouter/auto', { kind: 'embeddings', generic: true })).toBeUndefined()
  })
})

describe('generic models (the generic-models setting)', () => {
  it('serves a well-formed author/slug of the route’s kind at the default prices, only when the setting is on', () => {
    expect(resolved('acme/brand-new')).toBeUndefined()
    const model = resolved('acme/brand-new', { generic: true })!
    expect(model).toMatchObject({ via: 'generic', model: { id: 'acme/brand-new', pricing: GENERIC_PRICES.text } })
    expect(model.model.endpoints[0]!.supported_parameters).toContain('tools')
    expect(resolved('acme/new-embed', { generic: true, kind: 'embeddings' })!.model).toMatchObject({
      architecture: { output_modalities: ['embeddings'] },
      embedding_dimensions: 1536,
    })
    // The same id asked again is the same object (kept per catalog), and ill-formed ids stay refused.
    expect(resolved('acme/brand-new', { generic: true })!.model).toBe(model.model)
    for (const id of ['acme', 'Acme/Model', 'acme/model/extra', 'acme/ spaced', 'acme/x:online']) expect(resolved(id, { generic: true }), id).toBeUndefined()
    expect(resolved('acme/clip', { generic: true, kind: 'video' })).toBeUndefined()
    // A known id is never generic.
    expect(resolved('openai/gpt-4o', { generic: true })!.via).toBe('id')
  })
})

describe('did you mean', () => {
  it('suggests at most three known ids, nearest first, and none when nothing is near', () => {
    expect(suggestModels(catalog, 'anthropic/claude-sonet-4.5')).toEqual([
      'anthropic/claude-sonnet-4.5',
      'anthropic/claude-sonnet-4.6',
      'anthropic/claude-sonnet-4',
    ])
    expect(suggestModels(catalog, 'openai/gpt4o')[0]).toBe('openai/gpt-4o')
    expect(suggestModels(catalog, 'nobody/nothing')).toEqual([])
    expect(suggestModels(catalog, 'x'.repeat(SUGGEST_MAX_ID_CHARS + 1))).toEqual([])
    const error = (() => {
      try {
        resolveModel(catalog, 'anthropic/claude-sonet-4.5', text)
      } catch (e) {
        return e as ApiError
      }
    })()!
    expect(error.status).toBe(400)
    expect(error.message).toBe(
      'anthropic/claude-sonet-4.5 is not a valid model ID. Did you mean anthropic/claude-sonnet-4.5, anthropic/claude-sonnet-4.6, anthropic/claude-sonnet-4?',
    )
  })

  it('measures the edit distance as Levenshtein does, up to its bound', () => {
    const levenshtein = (a: string, b: string): number => {
      const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++)
          rows[i]![j] = Math.min(rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1)
      return rows[a.length]![b.length]!
    }
    // A fixed walk over short strings of a small alphabet: many near pairs.
    let state = 7
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31)
    const word = () => Array.from({ length: next() % 9 }, () => 'abc'[next() % 3]).join('')
    for (let n = 0; n < 2000; n++) {
      const [a, b, bound] = [word(), word(), next() % 5]
      expect(boundedDistance(a, b, bound), `${a} ${b} ${bound}`).toBe(Math.min(levenshtein(a, b), bound + 1))
    }
  })

  it('takes bounded time: an id at the length cap against every known id, a hundred times, well under a second', () => {
    const started = performance.now()
    for (let i = 0; i < 100; i++) suggestModels(catalog, `${'a'.repeat(SUGGEST_MAX_ID_CHARS - 10)}/claude-x${i}`)
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
