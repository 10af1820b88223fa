// Chat fixtures: per-account rules that answer chat and text completions with given text, tool calls
// or an error. What each condition matches, order and `times`, the answers (JSON and streamed), the
// ledger (a fixture's answer is billed, its error is not, a 402 leaves it unused), the admin API's
// bad-input rules, the test endpoint, and export/import and account reset.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'

const ADMIN = '/_emulator/api'
const MODEL = 'openai/gpt-4o-mini'

interface Workspace {
  id: string
  standard_key: string
}

/** A fresh account with credits, and a way to add fixtures to it and to chat with its key. */
async function setup() {
  const emu = await testEmulator()
  const account = (await emu.send('POST', `${ADMIN}/accounts`, { credits_usd: 10 })).body.data as Workspace
  const add = async (rule: Record<string, unknown>) => {
    const res = await emu.send('POST', `${ADMIN}/accounts/${account.id}/chat-fixtures`, rule)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.data as { id: string; position: number; remaining: number | null; explanation: string }
  }
  const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    emu.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${account.standard_key}`, 'content-type': 'application/json', ...headers },
      payload: { model: MODEL, messages: [{ role: 'user', content: 'Hello there' }], ...body },
    })
  const content = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await chat(body, headers)
    expect(res.statusCode, res.body).toBe(200)
    return res.json().choices[0].message.content as string
  }
  const list = async () => (await emu.get(`${ADMIN}/accounts/${account.id}/chat-fixtures`)).body.data as Array<Record<string, any>>
  return { emu, account, add, chat, content, list }
}

const user = (text: string) => ({ messages: [{ role: 'user', content: text }] })

describe('what a fixture matches', () => {
  it('answers with its text when every condition holds, and leaves other requests to the generator', async () => {
    const { add, content } = await setup()
    const generated = await content(user('What is the capital of France?'))
    await add({ match: { last_user: 'CAPITAL of france' }, answer: { content: 'Paris.' } })
    expect(await content(user('What is the capital of France?'))).toBe('Paris.')
    expect(await content(user('What is the capital of Spain?'))).not.toBe('Paris.')
    expect(generated).not.toBe('Paris.')
  })

  it('reads the last user turn without its <system-reminder> blocks (a reminder-only turn is no turn of the user)', async () => {
    const { add, content } = await setup()
    await add({ match: { last_user_regex: '^order #\\d+$' }, answer: { content: 'by regex' } })
    await add({ match: { last_user: 'todo list' }, answer: { content: 'from a reminder' } })
    const reminder = '<system-reminder>Your todo list is empty.</system-reminder>'
    expect(await content(user(`${reminder}\norder #42`))).toBe('by regex')
    // The reminder's words are not the user's: a fixture on them does not answer.
    expect(await content(user(`Summarise the release notes ${reminder}`))).not.toBe('from a reminder')
    const afterTools = {
      messages: [
        { role: 'user', content: 'order #7' },
        { role: 'assistant', content: 'Looking.' },
        { role: 'user', content: reminder },
      ],
    }
    expect(await content(afterTools)).toBe('by regex')
  })

  it('matches a model (with * as a wildcard), a regular expression, the system prompt, a tool and the X-Emulator-Fixture header', async () => {
    const { add, content } = await setup()
    await add({ match: { model: 'anthropic/*' }, answer: { content: 'by model' } })
    await add({ match: { last_user_regex: '^order #\\d+$' }, answer: { content: 'by regex' } })
    await add({ match: { system: 'pirate' }, answer: { content: 'by system' } })
    await add({ match: { system_regex: 'json\\s+only' }, answer: { content: 'by system regex' } })
    await add({ match: { tool: 'lookup_order' }, answer: { content: 'by tool' } })
    await add({ match: { header: 'checkout-happy-path' }, answer: { content: 'by header' } })

    const models = (await (await setup()).emu.get('/api/v1/models')).body.data as Array<{ id: string }>
    const anthropic = models.find((m) => m.id.startsWith('anthropic/'))!.id
    expect(await content({ model: anthropic })).toBe('by model')
    expect(await content(user('Order #1234'))).toBe('by regex')
    expect(await content(user('Order #12a'))).not.toBe('by regex')
    expect(
      await content({
        messages: [
          { role: 'system', content: 'Talk like a Pirate.' },
          { role: 'user', content: 'hi' },
        ],
      }),
    ).toBe('by system')
    expect(
      await content({
        messages: [
          { role: 'developer', content: 'Answer in JSON   only' },
          { role: 'user', content: 'hi' },
        ],
      }),
    ).toBe('by system regex')
    const tool = { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: {} } } }
    expect(await content({ tools: [tool], tool_choice: 'none' })).toBe('by tool')
    expect(await content({}, { 'x-emulator-fixture': 'checkout-happy-path' })).toBe('by header')
    expect(await content({}, { 'x-emulator-fixture': 'other' })).not.toBe('by header')
  })

  it('answers a legacy completion by its prompt', async () => {
    const { emu, account, add } = await setup()
    await add({ match: { last_user: 'haiku' }, answer: { content: 'Old pond, frog jumps in.' } })
    const res = await emu.send('POST', '/api/v1/completions', { model: MODEL, prompt: 'Write a haiku' }, account.standard_key)
    expect(res.status).toBe(200)
    expect(res.body.choices[0].text).toBe('Old pond, frog jumps in.')
  })
})

describe('order and times', () => {
  it('the first rule by position answers; a new rule can go first, and a rule can be moved', async () => {
    const { emu, add, content, list } = await setup()
    const a = await add({ name: 'a', answer: { content: 'A' } })
    const b = await add({ name: 'b', answer: { content: 'B' } })
    expect([a.position, b.position]).toEqual([0, 1])
    expect(await content({})).toBe('A')
    const c = await add({ name: 'c', answer: { content: 'C' }, position: 0 })
    expect(c.position).toBe(0)
    expect(await content({})).toBe('C')
    expect((await list()).map((f) => [f.name, f.position])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ])
    expect((await emu.send('PATCH', `${ADMIN}/chat-fixtures/${b.id}`, { position: 0 })).body.data.position).toBe(0)
    expect(await content({})).toBe('B')
    expect((await emu.send('PATCH', `${ADMIN}/chat-fixtures/${b.id}`, { enabled: false })).status).toBe(200)
    expect(await content({})).toBe('C')
    await emu.send('DELETE', `${ADMIN}/chat-fixtures/${c.id}`)
    expect((await list()).map((f) => [f.name, f.position])).toEqual([
      ['b', 0],
      ['a', 1],
    ])
  })

  it('`times` answers the next N requests, then the rule stays listed as used up', async () => {
    const { emu, add, content, list } = await setup()
    const rule = await add({ answer: { content: 'Twice.' }, times: 2 })
    expect(rule.explanation).toBe('Answers "Twice." to every chat request of the account, the next 2 times.')
    expect(await content({})).toBe('Twice.')
    expect(await content({})).toBe('Twice.')
    expect(await content({})).not.toBe('Twice.')
    const [used] = await list()
    expect(used).toMatchObject({ times: 2, remaining: 0, hits: 2 })
    expect(used!.explanation).toMatch(/and is used up\.$/)
    // Setting times again starts the count again.
    await emu.send('PATCH', `${ADMIN}/chat-fixtures/${rule.id}`, { times: 1 })
    expect(await content({})).toBe('Twice.')
  })
})

describe('answers', () => {
  it('text is billed like a generated answer, cut by max_tokens and stop', async () => {
    const { emu, account, add, chat } = await setup()
    await add({ answer: { content: 'One two three. STOP here four five six seven eight nine ten.' } })
    const whole = (await chat({})).json()
    expect(whole.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'One two three. STOP here four five six seven eight nine ten.' },
    })
    expect(whole.usage.completion_tokens).toBeGreaterThan(5)
    expect(whole.usage.cost).toBeGreaterThan(0)
    const generation = await emu.get(`/api/v1/generation?id=${whole.id}`, account.standard_key)
    expect(generation.body.data.tokens_completion).toBe(whole.usage.completion_tokens)
    expect((await chat({ stop: [' STOP'] })).json().choices[0].message.content).toBe('One two three.')
    const cut = (await chat({ max_tokens: 3 })).json().choices[0]
    expect(cut.finish_reason).toBe('length')
    expect(cut.message.content).toBe('One two three')
  })

  it('tool calls: arguments given as an object are answered as JSON text, in JSON and as a stream', async () => {
    const { add, chat } = await setup()
    await add({
      match: { tool: 'get_weather' },
      answer: {
        tool_calls: [
          { name: 'get_weather', arguments: { city: 'Oslo', unit: 'celsius' } },
          { name: 'get_time', arguments: '{"zone":"CET"}' },
        ],
      },
    })
    const tools = ['get_weather', 'get_time'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }))
    const res = (await chat({ tools })).json()
    expect(res.choices[0].finish_reason).toBe('tool_calls')
    expect(res.choices[0].message.content).toBeNull()
    const calls = res.choices[0].message.tool_calls as Array<{ id: string; type: string; function: { name: string; arguments: string } }>
    expect(calls.map((c) => [c.type, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['function', 'get_weather', { city: 'Oslo', unit: 'celsius' }],
      ['function', 'get_time', { zone: 'CET' }],
    ])
    expect(calls[0]!.id).toMatch(/^call_/)
    expect(calls[0]!.id).not.toBe(calls[1]!.id)

    const stream = await chat({ tools, stream: true })
    const events: EventSourceMessage[] = []
    createParser({ onEvent: (e) => events.push(e) }).feed(stream.body)
    const chunks = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data))
    const args = new Map<number, string>()
    for (const chunk of chunks)
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) args.set(call.index, (args.get(call.index) ?? '') + (call.function?.arguments ?? ''))
    expect([...args.values()].map((a) => JSON.parse(a))).toEqual([{ city: 'Oslo', unit: 'celsius' }, { zone: 'CET' }])
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls')
    expect(events.at(-1)!.data).toBe('[DONE]')
  })

  it("an error answers with the gateway's envelope and headers for its status, is counted, and bills nothing", async () => {
    const { emu, account, add, chat, list } = await setup()
    const rule = await add({ match: { last_user: 'busy' }, answer: { error: { status: 429 } }, times: 1 })
    const before = (await emu.get('/api/v1/credits', account.standard_key)).body.data.total_usage
    const res = await chat(user('are you busy?'))
    expect(res.statusCode).toBe(429)
    expect(res.headers['retry-after']).toBe('1')
    expect(res.json().error).toMatchObject({ code: 429, message: 'Rate limit exceeded', metadata: { emulator_fixture: rule.id } })
    expect((await emu.get('/api/v1/credits', account.standard_key)).body.data.total_usage).toBe(before)
    expect((await list())[0]).toMatchObject({ remaining: 0, hits: 1 })
    expect((await chat(user('are you busy?'))).statusCode).toBe(200)

    await add({ answer: { error: { status: 400, message: 'Your prompt was flagged' } } })
    const flagged = await chat({ stream: true })
    expect(flagged.statusCode).toBe(400)
    expect(flagged.json().error.message).toBe('Your prompt was flagged')
  })

  it('a 402 leaves the fixture unused: it answers only what is billed', async () => {
    const { emu, add, list } = await setup()
    const broke = (await emu.send('POST', `${ADMIN}/accounts`, {})).body.data as Workspace
    const res = await emu.send('POST', `${ADMIN}/accounts/${broke.id}/chat-fixtures`, { answer: { content: 'Free?' }, times: 1 })
    expect(res.status).toBe(201)
    const poor = await emu.send('POST', '/api/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, broke.standard_key)
    expect(poor.status).toBe(402)
    expect((await emu.get(`${ADMIN}/chat-fixtures/${res.body.data.id}`)).body.data).toMatchObject({ remaining: 1, hits: 0 })
    // Fixtures are per account: another account's rule never answers.
    await add({ answer: { content: 'mine' } })
    expect((await list())[0]).toMatchObject({ hits: 0 })
  })
})

describe('the admin API', () => {
  const bad: Array<[string, Record<string, unknown>, string, string]> = [
    ['an empty answer', { answer: {} }, 'answer', 'Field `answer` needs `content`, `tool_calls` or `error`'],
    [
      'an error with text',
      { answer: { content: 'x', error: { status: 500 } } },
      'answer.error',
      'Field `answer.error` stands alone: an answer is an error, or text and tool calls, not both',
    ],
    [
      'tool call arguments that are not JSON',
      { answer: { tool_calls: [{ name: 'f', arguments: '{city:' }] } },
      'answer.tool_calls[0].arguments',
      'Field `answer.tool_calls[0].arguments` must be an object or its JSON text',
    ],
    ['a regular expression that does not compile', { match: { last_user_regex: '(' }, answer: { content: 'x' } }, 'match.last_user_regex', ''],
    ['a system regex that does not compile', { match: { system_regex: '[a-' }, answer: { content: 'x' } }, 'match.system_regex', ''],
  ]
  it.each(bad)('refuses %s with a 400 naming the field, and stores nothing', async (_, body, field, message) => {
    const { emu, account, list } = await setup()
    const res = await emu.send('POST', `${ADMIN}/accounts/${account.id}/chat-fixtures`, body)
    expect(res.status).toBe(400)
    expect(res.body.error.metadata.field).toBe(field)
    if (message) expect(res.body.error.message).toBe(message)
    else expect(res.body.error.message).toMatch(new RegExp(`^Field \`${field.replace('.', '\\.')}\` is not a valid regular expression: `))
    expect(await list()).toEqual([])
  })

  it('refuses schema violations (unknown fields, a bad status, a bad tool name) with a 400 naming the field', async () => {
    const { emu, account } = await setup()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ answer: { content: 'x' }, match: { prompt: 'x' } }, 'match'],
      [{ answer: { error: { status: 200 } } }, 'answer.error.status'],
      [{ answer: { tool_calls: [{ name: 'get weather', arguments: {} }] } }, 'answer.tool_calls.0.name'],
      [{ answer: { content: 'x' }, times: 0 }, 'times'],
    ]
    for (const [body, field] of cases) {
      const res = await emu.send('POST', `${ADMIN}/accounts/${account.id}/chat-fixtures`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message, JSON.stringify(res.body)).toContain(field.split('.')[0])
    }
  })

  it('404 for an unknown account or rule', async () => {
    const { emu } = await setup()
    const res = await emu.send('POST', `${ADMIN}/accounts/nope/chat-fixtures`, { answer: { content: 'x' } })
    expect(res.status).toBe(404)
    expect(res.body.error).toEqual({ code: 404, message: 'Account nope not found' })
    expect((await emu.send('PATCH', `${ADMIN}/chat-fixtures/nope`, { enabled: false })).body.error).toEqual({
      code: 404,
      message: 'Chat fixture nope not found',
    })
    expect((await emu.send('DELETE', `${ADMIN}/chat-fixtures/nope`)).status).toBe(404)
  })

  it('the test endpoint says which rule would answer and why the others would not, without using any', async () => {
    const { emu, account, add, list } = await setup()
    const a = await add({ name: 'greeting', match: { last_user: 'hello' }, answer: { content: 'Hi!' }, times: 1 })
    const b = await add({ name: 'catch-all', answer: { content: 'Anything.' } })
    const test = (body: Record<string, unknown>) => emu.send('POST', `${ADMIN}/accounts/${account.id}/chat-fixtures/test`, { model: MODEL, ...body })
    const hello = (await test(user('hello world'))).body.data
    expect(hello.fixture.id).toBe(a.id)
    expect(hello.checks).toEqual([
      { id: a.id, name: 'greeting', answers: true, reason: null },
      { id: b.id, name: 'catch-all', answers: false, reason: 'an earlier rule answers' },
    ])
    const other = (await test({ prompt: 'goodbye' })).body.data
    expect(other.fixture.id).toBe(b.id)
    expect(other.checks[0]).toEqual({ id: a.id, name: 'greeting', answers: false, reason: 'the last user message does not contain "hello"' })
    expect((await list())[0]).toMatchObject({ remaining: 1, hits: 0 })
    const badMessages = await test({ messages: [{ role: 'wizard', content: 'x' }] })
    expect(badMessages.status).toBe(400)
    expect(badMessages.body.error.metadata.field).toBe('messages[0].role')
  })

  it('travels with the state: exported, imported (checked), and deleted with its account', async () => {
    const { emu, account, add, content, list } = await setup()
    await add({ match: { last_user_regex: 'ship(ping)?' }, answer: { content: 'It ships tomorrow.' } })
    const exported = (await emu.get(`${ADMIN}/export`)).body
    expect(exported.tables.chat_fixtures).toHaveLength(1)
    await emu.send('POST', `${ADMIN}/reset`)
    expect((await emu.send('POST', `${ADMIN}/import`, exported)).status).toBe(200)
    expect(await content(user('When is shipping?'))).toBe('It ships tomorrow.')

    const broken = structuredClone(exported)
    broken.tables.chat_fixtures[0].match = JSON.stringify({ last_user_regex: '(' })
    const refused = await emu.send('POST', `${ADMIN}/import`, broken)
    expect(refused.status).toBe(400)
    expect(refused.body.error.metadata).toMatchObject({ field: 'tables.chat_fixtures[0].match' })

    expect((await emu.send('POST', `${ADMIN}/accounts/${account.id}/reset`)).status).toBe(200)
    expect(await list()).toEqual([])
  })
})
