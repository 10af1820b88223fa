// Model ids as real apps send them, through the official clients over real HTTP: aliases, variants and
// the router through openai (chat and Responses) and @openrouter/sdk; Claude Code's and Codex's default
// model names through @anthropic-ai/sdk and openai's Responses; refusals as each client surfaces them.
import Anthropic, { NotFoundError } from '@anthropic-ai/sdk'
import { OpenRouter } from '@openrouter/sdk'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const openai = (emu: { url: string; keys: { standard: string } }) => new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
const openrouter = (emu: { url: string; keys: { standard: string } }) =>
  new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
const anthropic = (emu: { url: string; keys: { standard: string } }) =>
  new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })

const question = (content: string) => [{ role: 'user' as const, content }]

describe('openai chat', () => {
  it('answers dated ids, :beta, clients’ names and variants with the model they name', async () => {
    const emu = await listeningEmulator()
    const client = openai(emu)
    for (const [asked, model] of [
      ['anthropic/claude-haiku-4.5-20251001', 'anthropic/claude-haiku-4.5'],
      ['anthropic/claude-sonnet-4.5:beta', 'anthropic/claude-sonnet-4.5'],
      ['claude-sonnet-4-5', 'anthropic/claude-sonnet-4.5'],
      ['~anthropic/claude-opus-latest', 'anthropic/claude-opus-5.5'],
      ['openai/gpt-4o:online', 'openai/gpt-4o'],
      ['google/gemini-3-flash-preview:nitro', 'google/gemini-3-flash-preview'],
      ['google/gemma-3-27b-it:free', 'google/gemma-3-27b-it:free'],
    ]) {
      const res = await client.chat.completions.create({ model: asked!, messages: question('What is a lighthouse?') })
      expect(res.model, asked).toBe(model)
      expect(res.choices[0]!.message.content).toMatch(/lighthouse/i)
    }
  })

  it('openrouter/auto: the same request gets the same model, another request seed may get another', async () => {
    const emu = await listeningEmulator()
    const client = openai(emu)
    const request = { model: 'openrouter/auto', messages: question('Plan a trip to the coast') }
    const first = await client.chat.completions.create(request)
    expect(first.model).not.toBe('openrouter/auto')
    expect((await client.chat.completions.create(request)).model).toBe(first.model)
    const bySeed = new Set<string>()
    for (let seed = 0; seed < 6; seed++) bySeed.add((await client.chat.completions.create({ ...request, seed })).model)
    expect(bySeed.size).toBeGreaterThan(1)
    // The auto-router plugin narrows the choice (an extra body field, as the gateway's clients send it).
    const narrowed = await client.chat.completions.create({ ...request, plugins: [{ id: 'auto-router', allowed_models: ['anthropic/*'] }] } as never)
    expect((narrowed as OpenAI.ChatCompletion).model).toMatch(/^anthropic\//)
  })

  it('refuses an unknown id with the real message and suggestions, as a BadRequestError', async () => {
    const emu = await listeningEmulator()
    const err = await openai(emu)
      .chat.completions.create({ model: 'openai/gpt-4o-mni', messages: question('hi') })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
    expect((err as Error).message).toMatch(/^400 openai\/gpt-4o-mni is not a valid model ID\. Did you mean openai\/gpt-4o-mini(, [^?]+)?\?$/)
  })
})

describe('openai Responses', () => {
  it("serves Codex CLI's default model name and the router", async () => {
    const emu = await listeningEmulator()
    const client = openai(emu)
    const codex = await client.responses.create({ model: 'gpt-5.6-sol', input: 'Fix the failing test' })
    expect(codex.status).toBe('completed')
    expect(codex.model).toBe('openai/gpt-5.6-sol')
    const routed = await client.responses.create({ model: 'openrouter/auto', input: 'Fix the failing test' })
    expect(routed.model).not.toBe('openrouter/auto')
    expect((await client.responses.create({ model: 'openrouter/auto', input: 'Fix the failing test' })).model).toBe(routed.model)
  })
})

describe('@openrouter/sdk', () => {
  it('sends :online, :exacto and openrouter/auto through its own schema validation', async () => {
    const emu = await listeningEmulator()
    const client = openrouter(emu)
    for (const [asked, model] of [
      ['openai/gpt-4o:online', 'openai/gpt-4o'],
      ['anthropic/claude-sonnet-4.5:exacto', 'anthropic/claude-sonnet-4.5'],
    ]) {
      const res = await client.chat.send({ chatRequest: { model: asked!, messages: question('What is a lighthouse?'), stream: false } })
      if (res instanceof ReadableStream) throw new Error('expected JSON, got a stream')
      expect(res.model).toBe(model)
      expect(res.usage?.cost).toBeGreaterThan(0)
    }
    const routed = await client.chat.send({ chatRequest: { model: 'openrouter/auto', messages: question('What is a lighthouse?'), stream: false } })
    if (routed instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    expect(routed.model).not.toBe('openrouter/auto')
    const err = await client.chat.send({ chatRequest: { model: 'openai/gpt-4o:bogus', messages: question('hi'), stream: false } }).catch((e: unknown) => e)
    expect((err as { statusCode?: number }).statusCode).toBe(400)
    expect((err as Error).message).toMatch(/openai\/gpt-4o:bogus is not a valid model ID/)
  })
})

describe('@anthropic-ai/sdk', () => {
  it("serves Claude Code's default and Anthropic's own model names, answering with the gateway's id", async () => {
    const emu = await listeningEmulator()
    const client = anthropic(emu)
    for (const [asked, model] of [
      ['claude-opus-5-5', 'anthropic/claude-opus-5.5'],
      ['claude-sonnet-4-5', 'anthropic/claude-sonnet-4.5'],
      ['claude-opus-4-1-20250805', 'anthropic/claude-opus-4.1'],
      ['claude-haiku-4-5', 'anthropic/claude-haiku-4.5'],
    ]) {
      const message = await client.messages.create({ model: asked!, max_tokens: 256, messages: question('Tell me about lighthouses') })
      expect(message.model, asked).toBe(model)
      expect(message.stop_reason).toBe('end_turn')
    }
    const err = await client.messages.create({ model: 'claude-nonexistent-9', max_tokens: 16, messages: question('hi') }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NotFoundError)
  })
})
