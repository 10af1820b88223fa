// Model ids through the gateway's routes (catalog-resolve.service.ts): every refusal with its status and
// body, what each variant bills and which provider serves it, the router's bill, generic models
// behind their setting, and the same resolution on the other surfaces (embeddings, rerank, images, audio).
import { describe, expect, it } from 'vitest'
import { priceUsd } from '../../../src/emulator/core/money.ts'
import { GENERIC_PRICES } from '../../../src/emulator/modules/catalog/catalog-resolve.service.ts'
import type { CatalogEndpoint } from '../../../src/emulator/modules/catalog/catalog.schemas.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const USER = [{ role: 'user', content: 'Tell me about lighthouses' }]

const chat = (emu: TestEmulator, body: Record<string, unknown>) => emu.send('POST', '/api/v1/chat/completions', { messages: USER, ...body }, emu.keys.standard)

/** What the catalog charges for a chat answer's tokens at the endpoint that served it. */
function tokensCost(emu: TestEmulator, res: { body: any }, modelId: string): { cost: number; endpoint: CatalogEndpoint } {
  const model = emu.ctx.services.catalog.get().find(modelId)!
  const endpoint = model.endpoints.find((e) => e.provider_name === res.body.provider)!
  const { prompt_tokens: prompt, completion_tokens: completion } = res.body.usage
  return { cost: prompt * priceUsd(endpoint.pricing.prompt) + completion * priceUsd(endpoint.pricing.completion), endpoint }
}

describe('refusals: a 400 in the real words, nothing billed', () => {
  it('an unknown id: the real message, and the nearest known ids when some are near', async () => {
    const emu = await testEmulator()
    const typo = await chat(emu, { model: 'anthropic/claude-sonet-4.5' })
    expect(typo.status).toBe(400)
    expect(typo.body).toEqual({
      error: {
        code: 400,
        message:
          'anthropic/claude-sonet-4.5 is not a valid model ID. Did you mean anthropic/claude-sonnet-4.5, anthropic/claude-sonnet-4.6, anthropic/claude-sonnet-4?',
        metadata: {
          field: 'model',
          location: 'body',
          suggestions: ['anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4.6', 'anthropic/claude-sonnet-4'],
        },
      },
    })
    const far = await chat(emu, { model: 'nobody/nothing' })
    expect(far.body).toEqual({ error: { code: 400, message: 'nobody/nothing is not a valid model ID', metadata: { field: 'model', location: 'body' } } })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })

  it.each([
    ['an unknown suffix', 'openai/gpt-4o:bogus'],
    [':free where the catalog lists no free model', 'openai/gpt-4o:free'],
    [':thinking on a model that does not reason', 'openai/gpt-4o:thinking'],
    ['a variant on an unknown model', 'nobody/nothing:nitro'],
  ])('%s (%s)', async (_, model) => {
    const emu = await testEmulator()
    const res = await chat(emu, { model })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, metadata: { field: 'model', location: 'body' } })
    expect(res.body.error.message).toMatch(new RegExp(`^${model.replace(/[.:/]/g, '\\$&')} is not a valid model ID(\\. Did you mean [^?]+\\?)?$`))
  })

  it('the auto-router plugin: patterns that leave no model, and patterns that are not a list of strings', async () => {
    const emu = await testEmulator()
    const none = await chat(emu, { model: 'openrouter/auto', plugins: [{ id: 'auto-router', allowed_models: ['nobody/*'] }] })
    expect(none.status).toBe(400)
    expect(none.body).toEqual({
      error: {
        code: 400,
        message: "No models match the auto-router plugin's allowed_models and excluded_models",
        metadata: { field: 'plugins', location: 'body', allowed_models: ['nobody/*'], excluded_models: [] },
      },
    })
    const bad = await chat(emu, { model: 'openrouter/auto', plugins: [{ id: 'web' }, { id: 'auto-router', allowed_models: 'anthropic/*' }] })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({
      code: 400,
      message: 'Field `plugins[1].allowed_models` must be a list of at most 1024 model patterns (such as `anthropic/*`), each 1 to 1024 characters',
      metadata: { field: 'plugins[1].allowed_models' },
    })
  })

  it('the same words on the other surfaces, with their suggestions', async () => {
    const emu = await testEmulator()
    const embeddings = await emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embeding-3-small', input: 'x' }, emu.keys.standard)
    expect(embeddings.status).toBe(400)
    expect(embeddings.body.error.message).toBe(
      'openai/text-embeding-3-small is not a valid model ID. Did you mean openai/text-embedding-3-small, openai/text-embedding-3-large, openai/text-embedding-ada-002?',
    )
    const rerank = await emu.send('POST', '/api/v1/rerank', { model: 'cohere/rerank-v3.5:bogus', query: 'q', documents: ['d'] }, emu.keys.standard)
    expect(rerank.status).toBe(400)
    expect(rerank.body.error.message).toMatch(/^cohere\/rerank-v3\.5:bogus is not a valid model ID/)
  })
})

describe('variants', () => {
  it(':nitro, :floor and :exacto serve from the fastest, the cheapest and the tool-calling-first endpoint, billed at its price', async () => {
    const emu = await testEmulator()
    const base = 'meta-llama/llama-3.3-70b-instruct'
    const endpoints = emu.ctx.services.catalog.get().find(base)!.endpoints
    const fastest = [...endpoints].sort((a, b) => b.throughput_last_30m!.p50 - a.throughput_last_30m!.p50)[0]!
    const cheapest = [...endpoints].sort(
      (a, b) => priceUsd(a.pricing.prompt) + priceUsd(a.pricing.completion) - priceUsd(b.pricing.prompt) - priceUsd(b.pricing.completion),
    )[0]!
    const exacto = [...endpoints].sort((a, b) => b.uptime_last_30m! - a.uptime_last_30m! || b.throughput_last_30m!.p50 - a.throughput_last_30m!.p50)[0]!
    const plain = await chat(emu, { model: base })
    for (const [variant, endpoint] of [
      ['nitro', fastest],
      ['floor', cheapest],
      ['exacto', exacto],
    ] as const) {
      const res = await chat(emu, { model: `${base}:${variant}` })
      expect(res.status).toBe(200)
      expect(res.body.model).toBe(base)
      expect(res.body.provider).toBe(endpoint.provider_name)
      expect(res.body.usage.cost).toBeCloseTo(tokensCost(emu, res, base).cost, 12)
    }
    // The variants change the choice: here the fastest is not the endpoint served without one.
    expect(fastest.provider_name).not.toBe(plain.body.provider)
  })

  it(':online is accepted and billed at the endpoint’s web_search price where the data has one', async () => {
    const emu = await testEmulator()
    const priced = await chat(emu, { model: 'x-ai/grok-4:online' })
    expect(priced.status).toBe(200)
    expect(priced.body.model).toBe('x-ai/grok-4')
    const { cost, endpoint } = tokensCost(emu, priced, 'x-ai/grok-4')
    expect(endpoint.pricing.web_search).toBe('0.025')
    expect(priced.body.usage.cost).toBeCloseTo(cost + 0.025, 12)
    const unpriced = await chat(emu, { model: 'openai/gpt-4o:online' })
    expect(unpriced.status).toBe(200)
    expect(unpriced.body.model).toBe('openai/gpt-4o')
    expect(unpriced.body.usage.cost).toBeCloseTo(tokensCost(emu, unpriced, 'openai/gpt-4o').cost, 12)
  })

  it(':thinking turns reasoning on where the model reasons', async () => {
    const emu = await testEmulator()
    const plain = await chat(emu, { model: 'anthropic/claude-opus-5.5' })
    expect(plain.body.usage.completion_tokens_details.reasoning_tokens).toBe(0)
    const thinking = await chat(emu, { model: 'anthropic/claude-opus-5.5:thinking' })
    expect(thinking.body.model).toBe('anthropic/claude-opus-5.5')
    expect(thinking.body.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0)
  })
})

describe('aliases and routers in the ledger', () => {
  it('a dated id answers and records the model it names', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { model: 'anthropic/claude-sonnet-4.5-20250929:beta' })
    expect(res.status).toBe(200)
    expect(res.body.model).toBe('anthropic/claude-sonnet-4.5')
    const generation = await emu.get(`/api/v1/generation?id=${res.body.id}`, emu.keys.standard)
    expect(generation.body.data).toMatchObject({ model: 'anthropic/claude-sonnet-4.5', total_cost: res.body.usage.cost })
  })

  it('openrouter/auto answers with the model it chose and bills that model’s price; fallbacks after it still work', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { model: 'openrouter/auto' })
    expect(res.status).toBe(200)
    expect(res.body.model).not.toBe('openrouter/auto')
    expect(res.body.usage.cost).toBeCloseTo(tokensCost(emu, res, res.body.model).cost, 12)
    expect((await chat(emu, { model: 'openrouter/auto' })).body.model).toBe(res.body.model)
    const fallback = await chat(emu, { model: 'nobody/nothing', models: ['claude-sonnet-4-5'] })
    expect(fallback.body.model).toBe('anthropic/claude-sonnet-4.5')
  })
})

describe('generic models', () => {
  it('are off by default, and with the setting serve any well-formed id at the default prices', async () => {
    expect((await chat(await testEmulator(), { model: 'acme/brand-new' })).status).toBe(400)
    const emu = await testEmulator({ genericModels: true })
    const res = await chat(emu, { model: 'acme/brand-new' })
    expect(res.status).toBe(200)
    expect(res.body.model).toBe('acme/brand-new')
    const { prompt_tokens: prompt, completion_tokens: completion } = res.body.usage
    expect(res.body.usage.cost).toBeCloseTo(prompt * priceUsd(GENERIC_PRICES.text.prompt) + completion * priceUsd(GENERIC_PRICES.text.completion), 12)
    const embedded = await emu.send('POST', '/api/v1/embeddings', { model: 'acme/new-embed', input: 'hello' }, emu.keys.standard)
    expect(embedded.status).toBe(200)
    expect(embedded.body.data[0].embedding).toHaveLength(1536)
    // Still the real 400 for what is no model id at all.
    expect((await chat(emu, { model: 'Not A Model' })).status).toBe(400)
  })
})

describe('the other surfaces read ids the same way', () => {
  it('embeddings take a bare OpenAI name and a variant', async () => {
    const emu = await testEmulator()
    for (const model of ['text-embedding-3-small', 'openai/text-embedding-3-small:floor']) {
      const res = await emu.send('POST', '/api/v1/embeddings', { model, input: 'hello' }, emu.keys.standard)
      expect(res.status, model).toBe(200)
      expect(res.body.model).toBe('text-embedding-3-small')
    }
  })
})
