// Presets applied to the text APIs: a request naming `@preset/<slug>` (or `<model>@preset/<slug>`, or
// a `preset` field) gets the preset's designated version, whatever API made it; the answer shows the
// preset's model, and a chat fixture matching the preset's system prompt answers. The request's own
// fields win; an unknown preset is a 404 naming the field that named it, in each API's envelope, and
// bills nothing; the journal keeps the request as sent.
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const PIRATE_MODEL = 'anthropic/claude-sonnet-4'
const OTHER_MODEL = 'openai/gpt-4o-mini'
const ARR = 'Arr, matey.'

type Api = 'chat' | 'responses' | 'messages'

/** An emulator whose account answers "Arr" to any request whose system prompt mentions a pirate. */
async function pirateEmulator(): Promise<TestEmulator> {
  const emu = await testEmulator()
  const account = (await emu.get(`${ADMIN}/accounts`)).body.data[0].id as string
  const rule = await emu.send('POST', `${ADMIN}/accounts/${account}/chat-fixtures`, { match: { system: 'pirate' }, answer: { content: ARR } })
  expect(rule.status, JSON.stringify(rule.body)).toBe(201)
  return emu
}

const createPreset = async (emu: TestEmulator, slug: string, api: 'chat/completions' | 'messages' | 'responses', body: unknown) => {
  const res = await emu.send('POST', `/api/v1/presets/${slug}/${api}`, body, emu.keys.management)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

/** A question in each API's words, with `fields` laid over it. */
function ask(emu: TestEmulator, api: Api, fields: Record<string, unknown>) {
  const user = [{ role: 'user', content: 'Where is the treasure?' }]
  if (api === 'chat') return emu.send('POST', '/api/v1/chat/completions', { messages: user, ...fields }, emu.keys.standard)
  if (api === 'responses') return emu.send('POST', '/api/v1/responses', { input: 'Where is the treasure?', ...fields }, emu.keys.standard)
  return emu.send('POST', '/api/v1/messages', { max_tokens: 256, messages: user, ...fields }, emu.keys.standard)
}

/** The model that answered and the text of the answer, read from each API's answer. */
function answerOf(api: Api, body: any): { model: string; text: string } {
  if (api === 'chat') return { model: body.model, text: body.choices[0].message.content }
  if (api === 'responses') return { model: body.model, text: body.output.find((item: { type: string }) => item.type === 'message').content[0].text }
  return { model: body.model, text: body.content.find((block: { type: string }) => block.type === 'text').text }
}

describe.each(['chat', 'responses', 'messages'] as const)('on the %s API', (api) => {
  it('a preset made by each API applies: its model answers, and its system prompt (the fixture matches it)', async () => {
    const emu = await pirateEmulator()
    await createPreset(emu, 'from-chat', 'chat/completions', { model: PIRATE_MODEL, messages: [{ role: 'system', content: 'You are a pirate.' }] })
    await createPreset(emu, 'from-messages', 'messages', { model: PIRATE_MODEL, messages: [], system: 'You are a pirate.' })
    await createPreset(emu, 'from-responses', 'responses', { model: PIRATE_MODEL, instructions: 'You are a pirate.' })
    // Without the preset, no pirate: the generated answer.
    const plain = await ask(emu, api, { model: PIRATE_MODEL })
    expect(plain.status, JSON.stringify(plain.body)).toBe(200)
    expect(answerOf(api, plain.body).text).not.toBe(ARR)
    for (const slug of ['from-chat', 'from-messages', 'from-responses']) {
      const res = await ask(emu, api, { model: `@preset/${slug}` })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(answerOf(api, res.body)).toEqual({ model: PIRATE_MODEL, text: ARR })
    }
  })

  it('the request fixes its model with <model>@preset/<slug>, or with `preset` beside `model`; the system prompt still applies', async () => {
    const emu = await pirateEmulator()
    await createPreset(emu, 'pirate', 'responses', { model: PIRATE_MODEL, instructions: 'You are a pirate.' })
    for (const fields of [{ model: `${OTHER_MODEL}@preset/pirate` }, { model: OTHER_MODEL, preset: 'pirate' }]) {
      const res = await ask(emu, api, fields)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(answerOf(api, res.body)).toEqual({ model: OTHER_MODEL, text: ARR })
    }
  })

  it("the preset's output bound applies unless the request sets its own", async () => {
    const emu = await testEmulator()
    await createPreset(emu, 'short', 'chat/completions', { model: OTHER_MODEL, messages: [], max_tokens: 3 })
    const bounded = await ask(emu, api, { model: '@preset/short', ...(api === 'messages' && { max_tokens: undefined }) })
    expect(bounded.status, JSON.stringify(bounded.body)).toBe(200)
    const own = api === 'chat' ? { max_tokens: 40 } : api === 'responses' ? { max_output_tokens: 40 } : { max_tokens: 40 }
    const longer = await ask(emu, api, { model: '@preset/short', ...own })
    expect(longer.status, JSON.stringify(longer.body)).toBe(200)
    const outputTokens = (body: any): number => (api === 'chat' ? body.usage.completion_tokens : body.usage.output_tokens)
    expect(outputTokens(bounded.body)).toBe(3)
    expect(outputTokens(longer.body)).toBeGreaterThan(3)
  })

  it('an unknown preset is a 404 naming the field that named it, and bills nothing', async () => {
    const emu = await testEmulator()
    const before = (await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage
    const byModel = await ask(emu, api, { model: '@preset/nope' })
    expect(byModel.status).toBe(404)
    const byField = await ask(emu, api, { model: OTHER_MODEL, preset: 'nope' })
    expect(byField.status).toBe(404)
    if (api === 'messages') {
      expect(byModel.body).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: 'Preset nope not found' } })
      expect(byField.body.error.message).toBe('Preset nope not found')
    } else {
      expect(byModel.body).toEqual({ error: { code: 404, message: 'Preset nope not found', metadata: { field: 'model', location: 'body' } } })
      expect(byField.body).toEqual({ error: { code: 404, message: 'Preset nope not found', metadata: { field: 'preset', location: 'body' } } })
    }
    expect((await emu.get('/api/v1/key', emu.keys.standard)).body.data.usage).toBe(before)
  })

  it('a malformed reference is a 400 naming its field', async () => {
    const emu = await testEmulator()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ model: '@preset/' }, 'Field `model` must name a preset after @preset/'],
      [{ model: OTHER_MODEL, preset: 5 }, 'Field `preset` must be the slug of a preset'],
    ]
    for (const [fields, message] of cases) {
      const res = await ask(emu, api, fields)
      expect(res.status).toBe(400)
      expect(api === 'messages' ? res.body.error.message : res.body.error).toEqual(
        api === 'messages' ? message : { code: 400, message, metadata: expect.objectContaining({ field: message.split('`')[1] }) },
      )
    }
  })
})

describe('applying a preset', () => {
  it("another account's preset is unknown", async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 10 })).body.data as { management_key: string; standard_key: string }
    expect((await emu.send('POST', '/api/v1/presets/theirs/responses', { model: PIRATE_MODEL, instructions: 'Theirs.' }, other.management_key)).status).toBe(
      200,
    )
    expect((await ask(emu, 'chat', { model: '@preset/theirs' })).status).toBe(404)
    const theirs = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      { model: '@preset/theirs', messages: [{ role: 'user', content: 'x' }] },
      other.standard_key,
    )
    expect(theirs.status).toBe(200)
    expect(theirs.body.model).toBe(PIRATE_MODEL)
  })

  it('applies the latest version', async () => {
    const emu = await testEmulator()
    await createPreset(emu, 'moving', 'responses', { model: PIRATE_MODEL })
    await createPreset(emu, 'moving', 'responses', { model: OTHER_MODEL })
    expect(answerOf('chat', (await ask(emu, 'chat', { model: '@preset/moving' })).body).model).toBe(OTHER_MODEL)
  })

  it("the preset's fallback models are tried in order when it names no single model", async () => {
    const emu = await testEmulator()
    await createPreset(emu, 'fallbacks', 'chat/completions', { models: [OTHER_MODEL, PIRATE_MODEL], messages: [] })
    for (const api of ['chat', 'responses', 'messages'] as const) {
      const res = await ask(emu, api, { model: '@preset/fallbacks' })
      expect(res.status, `${api}: ${JSON.stringify(res.body)}`).toBe(200)
      expect(answerOf(api, res.body).model).toBe(OTHER_MODEL)
    }
  })

  it('a preset without a model needs the request to name one', async () => {
    const emu = await testEmulator()
    await createPreset(emu, 'modelless', 'responses', { instructions: 'Be brief.' })
    const res = await ask(emu, 'chat', { model: '@preset/modelless' })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Field `model` names preset modelless, which has no model: name one as <model>@preset/modelless')
    expect((await ask(emu, 'chat', { model: `${OTHER_MODEL}@preset/modelless` })).status).toBe(200)
  })

  it("a request's own system prompt follows the preset's", async () => {
    const emu = await testEmulator()
    const account = (await emu.get(`${ADMIN}/accounts`)).body.data[0].id as string
    // Matches only when the preset's prompt comes first and the request's follows it.
    await emu.send('POST', `${ADMIN}/accounts/${account}/chat-fixtures`, { match: { system_regex: 'pirate[\\s\\S]*parrot' }, answer: { content: ARR } })
    await createPreset(emu, 'pirate', 'messages', { model: PIRATE_MODEL, messages: [], system: 'You are a pirate.' })
    const chat = await ask(emu, 'chat', {
      model: '@preset/pirate',
      messages: [
        { role: 'system', content: 'You have a parrot.' },
        { role: 'user', content: 'Hi' },
      ],
    })
    expect(answerOf('chat', chat.body).text).toBe(ARR)
    const responses = await ask(emu, 'responses', { model: '@preset/pirate', instructions: 'You have a parrot.' })
    expect(answerOf('responses', responses.body).text).toBe(ARR)
    const messages = await ask(emu, 'messages', { model: '@preset/pirate', system: [{ type: 'text', text: 'You have a parrot.' }] })
    expect(answerOf('messages', messages.body).text).toBe(ARR)
  })

  it('a fault rule for the preset model matches the request that named the preset', async () => {
    const emu = await testEmulator()
    await createPreset(emu, 'pirate', 'responses', { model: PIRATE_MODEL })
    await emu.send('POST', `${ADMIN}/faults`, { match: { model: PIRATE_MODEL }, action: { status: 503 } })
    expect((await ask(emu, 'chat', { model: '@preset/pirate' })).status).toBe(503)
  })

  it('a streamed answer names the preset model in every chunk', async () => {
    const emu = await testEmulator()
    await createPreset(emu, 'pirate', 'responses', { model: PIRATE_MODEL })
    const res = await emu.request({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: '@preset/pirate', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(200)
    const chunks = String(res.body)
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice('data: '.length)) as { model: string })
    expect(chunks.length).toBeGreaterThan(1)
    for (const chunk of chunks) expect(chunk.model).toBe(PIRATE_MODEL)
  })

  it('the journal keeps the request as it was sent', async () => {
    const emu = await testEmulator()
    await createPreset(emu, 'pirate', 'responses', { model: PIRATE_MODEL, instructions: 'You are a pirate.' })
    expect((await ask(emu, 'chat', { model: '@preset/pirate' })).status).toBe(200)
    const entry = (await emu.get(`${ADMIN}/journal?limit=1`)).body.data[0]
    const full = (await emu.get(`${ADMIN}/journal/${entry.id}`)).body.data
    expect(JSON.parse(full.request.body)).toEqual({ model: '@preset/pirate', messages: [{ role: 'user', content: 'Where is the treasure?' }] })
  })
})
