// The plugins list as the real document's union gives it, on chat, Responses and Messages: every id
// accepted (each checked, an unknown one a 400 naming it), `context-compression` dropping middle messages
// of a prompt too long for the model instead of the context error, and `response-healing` repairing a
// JSON answer that does not parse (a fixture's), when not streamed. Through `openai` over real HTTP.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
/** A text model with an 8,192-token context. */
const SMALL = 'alpindale/goliath-120b'

/** A conversation of about 11,000 tokens: a system prompt, ten long turns, then a short question. */
function longConversation(): OpenAI.ChatCompletionMessageParam[] {
  const filler = (n: number) => `Turn ${n} talks at length about ${'gardens and their hedges, '.repeat(200)}`
  const turns: OpenAI.ChatCompletionMessageParam[] = Array.from({ length: 10 }, (_, n) =>
    n % 2 === 0 ? { role: 'user', content: filler(n) } : { role: 'assistant', content: filler(n) },
  )
  return [{ role: 'system', content: 'You answer briefly.' }, ...turns, { role: 'user', content: 'Tell me about lighthouses.' }]
}

const clientOf = (emu: { url: string; keys: { standard: string } }) => new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })

describe('context-compression (middle-out)', () => {
  it('a prompt past the context: a 400 without the plugin, a 200 with it, the middle dropped and the prompt billed as sent on', async () => {
    const emu = await listeningEmulator()
    const openai = clientOf(emu)
    const messages = longConversation()
    const refused = await openai.chat.completions.create({ model: SMALL, messages, max_tokens: 100 }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError)
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/maximum context length is 8192 tokens.*context-compression plugin/)

    const body = { model: SMALL, messages, max_tokens: 100, plugins: [{ id: 'context-compression', engine: 'middle-out' }] }
    const answer = await openai.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming)
    expect(answer.usage!.prompt_tokens).toBeLessThanOrEqual(8192 - 100)
    // Enough was dropped to fit, not everything: some of the long turns are still counted.
    expect(answer.usage!.prompt_tokens).toBeGreaterThan(4000)
    expect(answer.choices[0]!.message.content).toMatch(/lighthouses/i)

    // A prompt that fits is left whole: the same tokens with and without the plugin.
    const short = [{ role: 'user' as const, content: 'Tell me about lighthouses.' }]
    const plain = await openai.chat.completions.create({ model: SMALL, messages: short })
    const withPlugin = await openai.chat.completions.create({
      model: SMALL,
      messages: short,
      plugins: [{ id: 'context-compression' }],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    expect(withPlugin.usage!.prompt_tokens).toBe(plain.usage!.prompt_tokens)
    expect(withPlugin.choices[0]!.message.content).toBe(plain.choices[0]!.message.content)
  })

  it('turned off (enabled: false), or when the last turn alone is too long, the context error stands', async () => {
    const emu = await testEmulator()
    const send = (body: Record<string, unknown>) => emu.send('POST', '/api/v1/chat/completions', { model: SMALL, max_tokens: 100, ...body }, emu.keys.standard)
    const off = await send({ messages: longConversation(), plugins: [{ id: 'context-compression', enabled: false }] })
    expect(off.status).toBe(400)
    expect(off.body.error.message).toMatch(/maximum context length/)
    const huge = await send({ messages: [{ role: 'user', content: 'word '.repeat(9000) }], plugins: [{ id: 'context-compression' }] })
    expect(huge.status).toBe(400)
    expect(huge.body.error.message).toMatch(/maximum context length/)
  })
})

describe('response-healing', () => {
  it("repairs a fixture's broken JSON answer to a JSON response format, not when streamed nor without the plugin", async () => {
    const emu = await listeningEmulator()
    const account = (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 10 })).body.data as { id: string; standard_key: string }
    const broken = 'Here it is:\n```json\n{"city": "Paris", "tags": ["capital", "river",], "population": 2102650\n```'
    const added = await emu.send('POST', `${ADMIN}/accounts/${account.id}/chat-fixtures`, { match: { last_user: 'city' }, answer: { content: broken } })
    expect(added.status).toBe(201)
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: account.standard_key, maxRetries: 0 })
    const body = {
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user' as const, content: 'Which city?' }],
      response_format: { type: 'json_object' as const },
    }
    const healed = await openai.chat.completions.create({ ...body, plugins: [{ id: 'response-healing' }] } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    expect(JSON.parse(healed.choices[0]!.message.content!)).toEqual({ city: 'Paris', tags: ['capital', 'river'], population: 2102650 })

    const plain = await openai.chat.completions.create(body)
    expect(plain.choices[0]!.message.content).toBe(broken)

    const stream = await openai.chat.completions.create({
      ...body,
      stream: true,
      plugins: [{ id: 'response-healing' }],
    } as OpenAI.ChatCompletionCreateParamsStreaming)
    let streamed = ''
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? ''
    expect(streamed).toBe(broken)

    // A text answer is never touched.
    const text = await openai.chat.completions.create({
      ...body,
      response_format: { type: 'text' },
      plugins: [{ id: 'response-healing' }],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    expect(text.choices[0]!.message.content).toBe(broken)
  })
})

describe('the plugins list on every text surface', () => {
  const SURFACES = [
    { path: '/api/v1/chat/completions', body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } },
    { path: '/api/v1/responses', body: { model: 'openai/gpt-4o-mini', input: 'Hi' } },
    { path: '/api/v1/messages', body: { model: 'anthropic/claude-sonnet-4', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] } },
  ]

  it('accepts every plugin of the real document, on and off', async () => {
    const emu = await testEmulator()
    const every = [
      { id: 'moderation' },
      { id: 'web', max_results: 1 },
      { id: 'web-fetch', max_uses: 2 },
      { id: 'file-parser', pdf: { engine: 'cloudflare-ai' } },
      { id: 'response-healing' },
      { id: 'context-compression', engine: 'middle-out' },
      { id: 'pareto-router', enabled: false },
      { id: 'fusion', enabled: false },
      { id: 'auto-beta-router', enabled: false },
    ]
    for (const { path, body } of SURFACES) {
      const res = await emu.send('POST', path, { ...body, plugins: every }, emu.keys.standard)
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
    }
  })

  it('an unknown id or a wrong field is a 400 naming it, nothing billed', async () => {
    const emu = await testEmulator()
    const cases: Array<[unknown, string, string]> = [
      ['web', 'plugins', 'must be an array of plugin objects, each with an `id`'],
      [['web'], 'plugins[0]', 'must be a plugin object with an `id`'],
      [
        [{ id: 'telepathy' }],
        'plugins[0].id',
        'must be one of auto-router, auto-beta-router, moderation, web, web-fetch, file-parser, response-healing, context-compression, pareto-router, fusion',
      ],
      [
        [{ id: 'moderation' }, { enabled: true }],
        'plugins[1].id',
        'must be one of auto-router, auto-beta-router, moderation, web, web-fetch, file-parser, response-healing, context-compression, pareto-router, fusion',
      ],
      [[{ id: 'response-healing', enabled: 'yes' }], 'plugins[0].enabled', 'must be a boolean'],
      [[{ id: 'file-parser', pdf: { engine: 'tesseract' } }], 'plugins[0].pdf.engine', 'must be one of mistral-ocr, native, cloudflare-ai, pdf-text'],
      [[{ id: 'file-parser', pdf: 'native' }], 'plugins[0].pdf', 'must be an object with an optional `engine`'],
      [[{ id: 'context-compression', engine: 'head' }], 'plugins[0].engine', 'must be one of middle-out'],
      [Array.from({ length: 33 }, () => ({ id: 'moderation' })), 'plugins', 'must list at most 32 plugins'],
    ]
    for (const { path, body } of SURFACES) {
      for (const [plugins, field, issue] of cases) {
        const res = await emu.send('POST', path, { ...body, plugins }, emu.keys.standard)
        expect(res.status, `${path} ${JSON.stringify(plugins)}`).toBe(400)
        expect(JSON.stringify(res.body)).toContain(JSON.stringify(`Field \`${field}\` ${issue}`).slice(1, -1))
      }
    }
    const usage = emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage').get() as { n: number }
    expect(usage.n).toBe(0)
  })
})
