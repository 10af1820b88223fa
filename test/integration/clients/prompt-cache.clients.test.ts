// Prompt caching through the official clients: a long prompt asked twice on a model whose provider
// caches by itself (openai/*) reads its prefix the second time, at the cache read price; a different
// prefix reads nothing, and neither does the same prompt once its life on the virtual clock is over.
// Anthropic-style `cache_control` breakpoints write their prefix (billed at the write price) and a later
// request reads it; a bad directive is a 400 naming its field.
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'
import { PROMPT_CACHE_ROWS } from '../../../src/emulator/modules/text/text-cache.repo.ts'

const OPENAI_MODEL = 'openai/gpt-4o-mini'
const CLAUDE = 'anthropic/claude-sonnet-4'
// About 1,500 tokens of instructions: past the 1,024 the provider caches from.
const LONG = Array.from({ length: 300 }, (_, i) => `Rule ${i}: answer plainly.`).join(' ')

type Usage = OpenAI.CompletionUsage & { cost: number; prompt_tokens_details: { cached_tokens: number; cache_write_tokens?: number } }

describe('prompt caching', () => {
  it('caches a long prompt on an openai model by itself: read at the cache price, a new prefix or an expired one reads nothing', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const ask = (system: string, question: string) =>
      client.chat.completions.create({
        model: OPENAI_MODEL,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: question },
        ],
        seed: 1,
      })
    const first = await ask(LONG, 'Say hello.')
    const firstUsage = first.usage as Usage
    expect(firstUsage.prompt_tokens).toBeGreaterThan(1024)
    expect(firstUsage.prompt_tokens_details.cached_tokens).toBe(0)
    expect(firstUsage.prompt_tokens_details.cache_write_tokens).toBeUndefined()

    // Another question after the same instructions: their prefix is read, in 128-token steps.
    const second = await ask(LONG, 'Say goodbye.')
    const usage = second.usage as Usage
    const cached = usage.prompt_tokens_details.cached_tokens
    expect(cached).toBeGreaterThan(1000)
    expect(cached % 128).toBe(0)
    expect(cached).toBeLessThan(usage.prompt_tokens)
    // Cached tokens at the read price ($0.075/M), the rest at the prompt price ($0.15/M).
    const expected = (usage.prompt_tokens - cached) * 0.15e-6 + cached * 0.075e-6 + usage.completion_tokens * 0.6e-6
    expect(usage.cost).toBeCloseTo(expected, 12)
    const generation = (await emu.get(`/api/v1/generation?id=${second.id}`, emu.keys.standard)).body.data
    expect(generation.native_tokens_cached).toBe(cached)
    expect(generation.total_cost).toBe(usage.cost)

    // A different prefix reads nothing.
    expect(((await ask(`${LONG} And be kind.`, 'Say hello.')).usage as Usage).prompt_tokens_details.cached_tokens).toBe(0)
    // Past the life (5 minutes on the virtual clock) the prefix is gone.
    await emu.clock.advance(6 * 60_000)
    expect(((await ask(LONG, 'Say hello.')).usage as Usage).prompt_tokens_details.cached_tokens).toBe(0)
    // A hit within the life moves it on: 4 minutes, a hit, 4 more minutes, still there.
    await emu.clock.advance(4 * 60_000)
    expect(((await ask(LONG, 'Say hello.')).usage as Usage).prompt_tokens_details.cached_tokens).toBeGreaterThan(0)
    await emu.clock.advance(4 * 60_000)
    expect(((await ask(LONG, 'Say hello.')).usage as Usage).prompt_tokens_details.cached_tokens).toBeGreaterThan(0)
  })

  it('leaves a short prompt uncached, and a cache_control breakpoint on chat writes and reads it', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const plain = () => client.chat.completions.create({ model: OPENAI_MODEL, messages: [{ role: 'user', content: 'Hi' }], seed: 1 })
    await plain()
    expect(((await plain()).usage as Usage).prompt_tokens_details.cached_tokens).toBe(0)
    const marked = (question: string) =>
      client.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] as never },
          { role: 'user', content: question },
        ],
        provider: { order: ['Anthropic'], allow_fallbacks: false },
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    const written = (await marked('Hello?')).usage as Usage
    expect(written.prompt_tokens_details.cached_tokens).toBe(0)
    expect(written.prompt_tokens_details.cache_write_tokens).toBeGreaterThan(0)
    const read = (await marked('Goodbye?')).usage as Usage
    expect(read.prompt_tokens_details.cached_tokens).toBe(written.prompt_tokens_details.cache_write_tokens)
    expect(read.prompt_tokens_details.cache_write_tokens).toBeUndefined()
  })

  it('refuses a bad cache_control, naming the field', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const bad = (cacheControl: unknown) =>
      client.chat.completions
        .create({
          model: OPENAI_MODEL,
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: cacheControl }] as never }],
        })
        .then(
          () => null,
          (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
        )
    const notEphemeral = await bad({ type: 'persistent' })
    expect(notEphemeral?.status).toBe(400)
    expect(notEphemeral?.message).toContain('messages[0].content[0].cache_control.type')
    const twoHours = await bad({ type: 'ephemeral', ttl: '2h' })
    expect(twoHours?.status).toBe(400)
    expect(twoHours?.message).toContain('messages[0].content[0].cache_control.ttl')
    const top = await client.chat.completions
      .create({ model: OPENAI_MODEL, messages: [{ role: 'user', content: 'Hi' }], cache_control: { type: 'ephemeral', ttl: '2h' } } as never)
      .then(
        () => null,
        (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
      )
    expect(top?.status).toBe(400)
    expect(top?.message).toContain('cache_control.ttl')
  })

  it('keeps each account’s cache to itself, within its bound', async () => {
    const emu = await listeningEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { name: 'other', credits_usd: 10 })).body.data.standard_key as string
    const ask = (key: string) =>
      new OpenAI({ apiKey: key, baseURL: `${emu.url}/api/v1`, maxRetries: 0 }).chat.completions.create({
        model: OPENAI_MODEL,
        messages: [
          { role: 'system', content: LONG },
          { role: 'user', content: 'Say hello.' },
        ],
      })
    await ask(emu.keys.standard)
    expect(((await ask(other)).usage as Usage).prompt_tokens_details.cached_tokens).toBe(0)
    expect(((await ask(emu.keys.standard)).usage as Usage).prompt_tokens_details.cached_tokens).toBeGreaterThan(0)

    // Past the bound, the prefixes soonest to expire go first (the account's own two, of the long prompt, live longer).
    const cache = emu.ctx.services.text.promptCache
    const accountId = emu.ctx.db.prepare<[], { account_id: string }>('SELECT account_id FROM prompt_cache LIMIT 1').get()!.account_id
    const held = emu.ctx.db.prepare<[string], { n: number; soonest: number }>(
      'SELECT COUNT(*) AS n, MIN(expires_at) AS soonest FROM prompt_cache WHERE account_id = ?',
    )
    const now = emu.clock.now()
    const rows = Array.from({ length: PROMPT_CACHE_ROWS + 5 }, (_, i) => ({
      account_id: accountId,
      model: 'x/y',
      prefix_hash: `h${i}`,
      tokens: 1,
      ttl_ms: 300_000,
      expires_at: now + 1000 + i,
    }))
    const before = held.get(accountId)!.n
    cache.write(rows, now)
    expect(held.get(accountId)).toEqual({ n: PROMPT_CACHE_ROWS, soonest: now + 1000 + 5 + before })
    // Expired rows go at the next write.
    cache.write([{ ...rows[0]!, prefix_hash: 'late', expires_at: now + 10_000_000 }], now + 5_000_000)
    expect(held.get(accountId)).toEqual({ n: 1, soonest: now + 10_000_000 })
  })

  it('Responses: a repeated long prompt reports input_tokens_details.cached_tokens', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const ask = () => client.responses.create({ model: OPENAI_MODEL, instructions: LONG, input: 'Say hello.' })
    expect((await ask()).usage!.input_tokens_details.cached_tokens).toBe(0)
    const second = (await ask()).usage!
    expect(second.input_tokens_details.cached_tokens).toBeGreaterThan(1000)
    expect(second.input_tokens_details.cached_tokens % 128).toBe(0)
  })
})

describe('prompt caching through @anthropic-ai/sdk', () => {
  it('a system block with cache_control is written, then read, each at the catalog’s price', async () => {
    const emu = await listeningEmulator()
    const client = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const ask = (question: string, ttl?: '1h') =>
      client.messages.create({
        model: CLAUDE,
        max_tokens: 64,
        system: [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral', ...(ttl && { ttl }) } }],
        messages: [{ role: 'user', content: question }],
        provider: { order: ['Anthropic'], allow_fallbacks: false },
      } as Anthropic.MessageCreateParamsNonStreaming)
    // Claude Sonnet 4: $3/M prompt, $3.75/M cache write, $0.30/M cache read, $15/M output.
    const costOf = (u: Anthropic.Usage) =>
      u.input_tokens * 3e-6 + (u.cache_creation_input_tokens ?? 0) * 3.75e-6 + (u.cache_read_input_tokens ?? 0) * 0.3e-6 + u.output_tokens * 15e-6
    const first = await ask('Hello?')
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1000)
    expect(first.usage.cache_read_input_tokens).toBe(0)
    expect(first.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: first.usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 })
    expect((first.usage as Anthropic.Usage & { cost: number }).cost).toBeCloseTo(costOf(first.usage), 12)

    const second = await ask('Goodbye?')
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    expect(second.usage.cache_creation_input_tokens).toBe(0)
    expect(second.usage.cache_creation).toBeNull()
    expect((second.usage as Anthropic.Usage & { cost: number }).cost).toBeCloseTo(costOf(second.usage), 12)
    expect((second.usage as Anthropic.Usage & { cost: number }).cost).toBeLessThan((first.usage as Anthropic.Usage & { cost: number }).cost)

    // Streamed: message_start carries the same counts.
    const stream = client.messages.stream({
      model: CLAUDE,
      max_tokens: 64,
      system: [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Again?' }],
      provider: { order: ['Anthropic'], allow_fallbacks: false },
    } as Anthropic.MessageStreamParams)
    const final = await stream.finalMessage()
    expect(final.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)

    // A one-hour breakpoint past the five-minute one's life: written again, by its life.
    await emu.clock.advance(6 * 60_000)
    const hour = await ask('Hello?', '1h')
    expect(hour.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: hour.usage.cache_creation_input_tokens })
    await emu.clock.advance(30 * 60_000)
    expect((await ask('Hello?', '1h')).usage.cache_read_input_tokens).toBe(hour.usage.cache_creation_input_tokens)
  })

  it('a breakpoint on a message block and on a tool cache their prefixes', async () => {
    const emu = await listeningEmulator()
    const client = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const tools: Anthropic.Tool[] = [
      { name: 'lookup', description: LONG, input_schema: { type: 'object', properties: { q: { type: 'string' } } }, cache_control: { type: 'ephemeral' } },
    ]
    const ask = (messages: Anthropic.MessageParam[]) =>
      client.messages.create({
        model: CLAUDE,
        max_tokens: 32,
        tools,
        messages,
        provider: { order: ['Anthropic'], allow_fallbacks: false },
      } as never) as Promise<Anthropic.Message>
    const first = await ask([{ role: 'user', content: [{ type: 'text', text: 'First question about otters.', cache_control: { type: 'ephemeral' } }] }])
    // The whole prompt is written (the tools', then the message's prefix), nothing left uncached.
    const firstTurn = first.usage.cache_creation_input_tokens!
    expect(first.usage.cache_read_input_tokens).toBe(0)
    expect(first.usage.input_tokens).toBe(0)
    // Another question: the tools' prefix is read, the new message's part written.
    const second = await ask([{ role: 'user', content: [{ type: 'text', text: 'Second question, about seals.', cache_control: { type: 'ephemeral' } }] }])
    const toolsOnly = second.usage.cache_read_input_tokens!
    expect(toolsOnly).toBeGreaterThan(1000)
    expect(toolsOnly).toBeLessThan(firstTurn)
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(0)
    // The first conversation again, one turn longer: its whole first turn is read.
    const third = await ask([
      { role: 'user', content: [{ type: 'text', text: 'First question about otters.', cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', content: 'They swim.' },
      { role: 'user', content: 'And eat?' },
    ])
    expect(third.usage.cache_read_input_tokens).toBe(firstTurn)
    expect(third.usage.input_tokens).toBeGreaterThan(0)
  })

  it('refuses a bad ttl on a message block, naming the field', async () => {
    const emu = await listeningEmulator()
    const client = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const error = await client.messages
      .create({
        model: CLAUDE,
        max_tokens: 16,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral', ttl: '2h' } }] }],
      } as never)
      .then(
        () => null,
        (e: unknown) => e as InstanceType<typeof Anthropic.APIError>,
      )
    expect(error?.status).toBe(400)
    expect(error?.message).toContain('messages[0].content[0].cache_control.ttl')
  })
})
