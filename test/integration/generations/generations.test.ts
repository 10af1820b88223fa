// A past generation's content and feedback over HTTP: what each text surface keeps (messages or the
// legacy prompt, the answer and its reasoning), how it is bounded and redacted, a broken stream's
// error, what is refused (status and body), one feedback per generation, and both in the state.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const CHAT_MODEL = 'openai/gpt-4o-mini'

const chat = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.standard) =>
  emu.send('POST', '/api/v1/chat/completions', { model: CHAT_MODEL, ...body }, key)

const content = (emu: TestEmulator, id: string, key = emu.keys.standard) => emu.get(`/api/v1/generation/content?id=${encodeURIComponent(id)}`, key)

const feedback = (emu: TestEmulator, body: Record<string, unknown>, key = emu.keys.management) => emu.send('POST', '/api/v1/generation/feedback', body, key)

async function accountId(emu: TestEmulator): Promise<string> {
  return (await emu.get(`${ADMIN}/accounts`)).body.data[0].id
}

async function oneChat(emu: TestEmulator): Promise<string> {
  const res = await chat(emu, { messages: [{ role: 'user', content: 'Tell me about rivers' }] })
  expect(res.status).toBe(200)
  return res.body.id
}

describe('generation content', () => {
  it("keeps a chat's messages (with tool calls) and its answer", async () => {
    const emu = await testEmulator()
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 21}' },
    ]
    const res = await chat(emu, { messages })
    expect(res.status).toBe(200)
    const got = await content(emu, res.body.id)
    expect(got.status).toBe(200)
    expect(got.body).toEqual({
      data: {
        input: {
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'What is the weather in Paris?' },
            { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
            { role: 'tool', content: '{"temp": 21}' },
          ],
        },
        output: { completion: res.body.choices[0].message.content, reasoning: null },
        error: null,
      },
    })
    // Any key of the account reads it.
    expect((await content(emu, res.body.id, emu.keys.management)).body).toEqual(got.body)
  })

  it('keeps the legacy completion as a prompt, and the Responses and Messages APIs as messages', async () => {
    const emu = await testEmulator()
    const legacy = await emu.send('POST', '/api/v1/completions', { model: CHAT_MODEL, prompt: 'Once upon a time' }, emu.keys.standard)
    expect((await content(emu, legacy.body.id)).body.data).toEqual({
      input: { prompt: 'Once upon a time' },
      output: { completion: legacy.body.choices[0].text, reasoning: null },
      error: null,
    })

    const responses = await emu.send('POST', '/api/v1/responses', { model: CHAT_MODEL, input: 'Name a colour' }, emu.keys.standard)
    expect(responses.status).toBe(200)
    const text = responses.body.output.find((item: { type: string }) => item.type === 'message').content[0].text
    const viaResponses = (await content(emu, responses.body.id)).body.data
    expect(viaResponses.input.messages.at(-1)).toEqual({ role: 'user', content: 'Name a colour' })
    expect(viaResponses.output.completion).toBe(text)

    const messages = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: 'anthropic/claude-sonnet-4', max_tokens: 200, system: 'Be kind.', messages: [{ role: 'user', content: 'Hello' }] },
      emu.keys.standard,
    )
    expect(messages.status).toBe(200)
    // The Messages API's own id is `msg_...`; its generation's is in the header.
    const viaMessages = (await content(emu, messages.headers['x-generation-id'] as string)).body.data
    expect(viaMessages.input.messages).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'Hello' },
    ])
    expect(viaMessages.output.completion).toBe(messages.body.content.find((b: { type: string }) => b.type === 'text').text)
  })

  it("keeps a reasoning model's reasoning", async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { model: 'openai/o4-mini', messages: [{ role: 'user', content: 'Think about tides' }], reasoning: { effort: 'low' } })
    expect(res.status).toBe(200)
    const output = (await content(emu, res.body.id)).body.data.output
    expect(output.reasoning).toBe(res.body.choices[0].message.reasoning)
    expect(output.reasoning.length).toBeGreaterThan(0)
  })

  it("never keeps the emulator's own keys, and cuts a part beyond 1 MiB saying how much", async () => {
    const emu = await testEmulator()
    const secret = emu.keys.standard
    const long = 'a'.repeat(1024 * 1024 + 10)
    // A model whose context holds more than the 1 MiB kept.
    const res = await chat(emu, {
      model: 'google/gemini-2.5-flash',
      messages: [
        { role: 'user', content: `my key is ${secret}, keep it safe` },
        { role: 'user', content: long },
        { role: 'user', content: 'and the end' },
      ],
    })
    expect(res.status).toBe(200)
    const kept = (await content(emu, res.body.id)).body.data.input.messages
    expect(JSON.stringify(kept)).not.toContain(secret)
    expect(kept[0].content).toBe(`my key is ${secret.slice(0, 12)}…[redacted], keep it safe`)
    const budgetLeft = 1024 * 1024 - kept[0].content.length
    expect(kept[1].content).toBe(`${'a'.repeat(budgetLeft)}…[${long.length - budgetLeft} more characters not kept]`)
    expect(kept[2].content).toBe('…[11 more characters not kept]')
  })

  it("says how a stream broken by a fault ended, in the document's error shape", async () => {
    const emu = await testEmulator()
    await emu.send(`POST`, `${ADMIN}/faults`, { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 3 } } })
    const res = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hello' }], stream: true },
    })
    const first = JSON.parse(
      res.body
        .split('\n\n')
        .find((e) => e.startsWith('data: {'))!
        .slice(6),
    ) as { id: string }
    const got = (await content(emu, first.id)).body.data
    expect(got.error).toEqual({
      status: null,
      message: 'The answer was broken part way (a fault rule)',
      provider_name: expect.any(String),
      raw: null,
      previous_errors: [],
    })
    expect(got.input.messages).toEqual([{ role: 'user', content: 'hello' }])
  })

  it('refuses with the status and a body naming what is wrong', async () => {
    const emu = await testEmulator()
    const missing = await emu.get('/api/v1/generation/content', emu.keys.standard)
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({
      error: { code: 400, message: 'Query parameter `id` is required', metadata: expect.objectContaining({ field: 'id', location: 'querystring' }) },
    })
    const empty = await emu.get('/api/v1/generation/content?id=', emu.keys.standard)
    expect(empty.status).toBe(400)
    expect(empty.body.error.metadata).toMatchObject({ field: 'id', location: 'querystring' })

    const unknown = await content(emu, 'gen-0-nothing')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: { code: 404, message: 'Generation gen-0-nothing not found', metadata: { field: 'id', location: 'querystring' } } })

    // A rerank is a generation too, but its content is not kept.
    const reranked = await emu.send('POST', '/api/v1/rerank', { model: 'cohere/rerank-v3.5', query: 'q', documents: ['a', 'b'] }, emu.keys.standard)
    expect(reranked.status).toBe(200)
    const notKept = await content(emu, reranked.body.id)
    expect(notKept.status).toBe(404)
    expect(notKept.body).toEqual({
      error: {
        code: 404,
        message: `Generation ${reranked.body.id} has no stored content: the emulator keeps the prompt and answer of text generations (chat, completions, responses, messages), and this one is rerank`,
        metadata: { field: 'id', location: 'querystring', api_type: 'rerank' },
      },
    })

    // Another account's generation is as unknown as none.
    const id = await oneChat(emu)
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    expect((await content(emu, id, other.standard_key)).status).toBe(404)

    const noKey = await emu.get(`/api/v1/generation/content?id=${id}`)
    expect(noKey.status).toBe(401)
    expect(noKey.body).toEqual({ error: { code: 401, message: 'No auth credentials found' } })
  })
})

describe('generation feedback', () => {
  it('records one piece of feedback per generation: a later one replaces the earlier', async () => {
    const emu = await testEmulator()
    const id = await oneChat(emu)
    const first = await feedback(emu, { generation_id: id, category: 'incoherence', comment: 'It rambled.' })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ data: { success: true } })
    const list = async () => (await emu.get(`${ADMIN}/accounts/${await accountId(emu)}/generation-feedback`)).body.data
    expect(await list()).toEqual([
      { generation_id: id, category: 'incoherence', comment: 'It rambled.', created_at: '2026-03-04T10:00:00.000Z', updated_at: null },
    ])

    await emu.send('POST', `${ADMIN}/clock/advance`, { ms: 5000 })
    expect((await feedback(emu, { generation_id: id, category: 'latency' })).status).toBe(200)
    expect(await list()).toEqual([
      { generation_id: id, category: 'latency', comment: null, created_at: '2026-03-04T10:00:00.000Z', updated_at: '2026-03-04T10:00:05.000Z' },
    ])
  })

  it('refuses each bad body with a 400 naming the field, an unknown generation with a 404, and records nothing', async () => {
    const emu = await testEmulator()
    const id = await oneChat(emu)
    const cases: Array<[Record<string, unknown>, string, string | RegExp]> = [
      [{ category: 'other' }, 'generation_id', 'Field `generation_id` is required'],
      [{ generation_id: '', category: 'other' }, 'generation_id', /^Field `generation_id` must/],
      [{ generation_id: id }, 'category', 'Field `category` is required'],
      [{ generation_id: id, category: 'rude' }, 'category', /^Field `category` must be one of latency, incoherence, /],
      [{ generation_id: id, category: 'other', comment: 'x'.repeat(1001) }, 'comment', /^Field `comment` must/],
      [{ generation_id: id, category: 'other', comment: 5 }, 'comment', 'Field `comment` must be a string'],
    ]
    for (const [body, field, message] of cases) {
      const res = await feedback(emu, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message, JSON.stringify(body)).toEqual(typeof message === 'string' ? message : expect.stringMatching(message))
      expect(res.body.error.metadata).toMatchObject({ field, location: 'body' })
    }
    const unknown = await feedback(emu, { generation_id: 'gen-0-nothing', category: 'other' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({
      error: { code: 404, message: 'Generation gen-0-nothing not found', metadata: { field: 'generation_id', location: 'body' } },
    })
    const other = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data
    expect((await feedback(emu, { generation_id: id, category: 'other' }, other.management_key)).status).toBe(404)

    const standard = await feedback(emu, { generation_id: id, category: 'other' }, emu.keys.standard)
    expect(standard.status).toBe(401)
    expect(standard.body).toEqual({ error: { code: 401, message: 'Only management keys can perform this operation' } })
    expect((await emu.get(`${ADMIN}/accounts/${await accountId(emu)}/generation-feedback`)).body.data).toEqual([])
  })
})

describe('content and feedback in the state', () => {
  it('round-trip through export and import, go on reset, and go with their account', async () => {
    const emu = await testEmulator()
    const id = await oneChat(emu)
    await feedback(emu, { generation_id: id, category: 'formatting' })
    const before = (await content(emu, id)).body
    const exported = (await emu.get(`${ADMIN}/export`)).body
    expect(exported.tables.generation_contents).toHaveLength(1)
    expect(exported.tables.generation_feedback).toHaveLength(1)
    await emu.send('POST', `${ADMIN}/reset`, {})
    expect((await content(emu, id)).status).toBe(404)
    expect((await emu.send('POST', `${ADMIN}/import`, exported)).status).toBe(200)
    expect((await content(emu, id)).body).toEqual(before)

    const broken = structuredClone(exported)
    broken.tables.generation_contents[0].input = '{"neither": true}'
    expect((await emu.send('POST', `${ADMIN}/import`, broken)).status).toBe(400)

    await emu.send('POST', `${ADMIN}/accounts/${await accountId(emu)}/reset`, {})
    expect((await content(emu, id)).status).toBe(404)
    expect((await emu.get(`${ADMIN}/accounts/${await accountId(emu)}/generation-feedback`)).body.data).toEqual([])
  })
})
