// The readers of upstream answers (recordings-answers.service.ts), fed real answers of the emulator itself: each
// text surface's JSON and its stream read into the same RecordedText (content, tool calls, reasoning,
// the finish reason in chat's words, model, provider, usage and cost), timing taken from arrival times,
// raw answers kept as JSON or bytes up to RAW_ANSWER_BYTES, and events parsed from any cut of the bytes.
import { describe, expect, it } from 'vitest'
import { rawFromAnswer, SseParser, textFromJson, TextStreamReader, type SseEvent } from '../../../src/emulator/modules/recordings/recordings-answers.service.ts'
import { RAW_ANSWER_BYTES } from '../../../src/emulator/modules/recordings/recordings-format.service.ts'
import type { TextOperation } from '../../../src/emulator/modules/recordings/recordings-normal.service.ts'
import { chatUpstream, completionsUpstream } from '../../../src/emulator/modules/chat/chat-upstream.service.ts'
import { messagesUpstream } from '../../../src/emulator/modules/messages/messages-upstream.service.ts'
import { responsesUpstream } from '../../../src/emulator/modules/responses/responses-upstream.service.ts'
import type { UpstreamReader } from '../../../src/emulator/modules/text/text-upstream.service.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

/** Each text surface's reader of upstream answers, as it registers it with the text engine. */
const READER: Record<TextOperation, UpstreamReader> = {
  'chat.create': chatUpstream,
  'completions.create': completionsUpstream,
  'responses.create': responsesUpstream,
  'messages.create': messagesUpstream,
}

const WEATHER = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
const USER = 'Why do lighthouses flash in patterns?'

/** The JSON answer and the stream (as text) of the same request. */
async function both(emu: TestEmulator, path: string, body: Record<string, unknown>): Promise<{ json: any; stream: string }> {
  const json = await emu.send('POST', path, body, emu.keys.standard)
  expect(json.status).toBe(200)
  const streamed = await emu.request({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ ...body, stream: true }),
  })
  expect(streamed.status).toBe(200)
  return { json: json.body, stream: streamed.body as string }
}

/** A stream read with each event arriving `stepMs` after the one before. */
function readStream(operation: TextOperation, stream: string, stepMs = 0): TextStreamReader {
  const reader = new TextStreamReader(READER[operation])
  const parser = new SseParser()
  const events = [...parser.push(stream), ...parser.end()]
  events.forEach((event, i) => reader.push(event, 100 + i * stepMs))
  return reader
}

/** What does not depend on the rendering: the stream and the JSON of one answer read the same. */
const sameAnswer = (a: object, b: object) => {
  const { timing: _a, ...left } = a as { timing?: unknown }
  const { timing: _b, ...right } = b as { timing?: unknown }
  expect(left).toEqual(right)
}

describe('text answers', () => {
  it('chat: content, reasoning, finish, model, provider and usage with cost, as JSON and as a stream', async () => {
    const emu = await testEmulator()
    const { json, stream } = await both(emu, '/api/v1/chat/completions', {
      model: 'openai/o4-mini',
      messages: [{ role: 'user', content: USER }],
      reasoning: { effort: 'low' },
    })
    const read = textFromJson(READER['chat.create'], json)
    expect(read).toEqual({
      model: 'openai/o4-mini',
      provider: json.provider,
      choices: [{ content: json.choices[0].message.content, reasoning: json.choices[0].message.reasoning, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: json.usage.prompt_tokens,
        completion_tokens: json.usage.completion_tokens,
        reasoning_tokens: json.usage.completion_tokens_details.reasoning_tokens,
        cost: json.usage.cost,
      },
    })
    expect(read.choices[0]!.reasoning).toMatch(/\S/)
    const reader = readStream('chat.create', stream)
    expect(reader.finished).toBe(true)
    expect(reader.error).toBeNull()
    expect(reader.reportedUsage).toBe(true)
    sameAnswer(reader.read(), read)
  })

  it('chat: tool calls by name and arguments, several choices, finish reasons as sent', async () => {
    const emu = await testEmulator()
    const { json, stream } = await both(emu, '/api/v1/chat/completions', {
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }],
      tool_choice: 'required',
      n: 2,
    })
    const read = textFromJson(READER['chat.create'], json)
    expect(read.choices).toHaveLength(2)
    for (const [i, choice] of read.choices.entries()) {
      expect(choice.finish_reason).toBe('tool_calls')
      expect(choice.tool_calls).toEqual([{ name: 'get_weather', arguments: json.choices[i].message.tool_calls[0].function.arguments }])
    }
    sameAnswer(readStream('chat.create', stream).read(), read)
  })

  it('text completions: the text of each choice', async () => {
    const emu = await testEmulator()
    const { json, stream } = await both(emu, '/api/v1/completions', { model: 'openai/gpt-4o-mini', prompt: 'Once upon a time', max_tokens: 5 })
    const read = textFromJson(READER['completions.create'], json)
    expect(read.choices).toEqual([{ content: json.choices[0].text, finish_reason: 'length' }])
    expect(read.usage.cost).toBe(json.usage.cost)
    sameAnswer(readStream('completions.create', stream).read(), read)
  })

  it('responses: message text, reasoning and function calls; incomplete is `length`', async () => {
    const emu = await testEmulator()
    const { json, stream } = await both(emu, '/api/v1/responses', {
      model: 'openai/o4-mini',
      input: USER,
      reasoning: { effort: 'low' },
      tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER }],
      tool_choice: 'required',
    })
    const read = textFromJson(READER['responses.create'], json)
    const call = json.output.find((item: any) => item.type === 'function_call')
    const reasoning = json.output.find((item: any) => item.type === 'reasoning')
    expect(read).toMatchObject({
      model: 'openai/o4-mini',
      choices: [{ tool_calls: [{ name: 'get_weather', arguments: call.arguments }], reasoning: reasoning.content[0].text, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: json.usage.input_tokens, completion_tokens: json.usage.output_tokens, cost: json.usage.cost },
    })
    sameAnswer(readStream('responses.create', stream).read(), read)

    const cut = await both(emu, '/api/v1/responses', { model: 'openai/gpt-4o-mini', input: USER, max_output_tokens: 16 })
    const cutRead = textFromJson(READER['responses.create'], cut.json)
    expect(cutRead.choices).toEqual([{ content: cut.json.output[0].content[0].text, finish_reason: 'length' }])
    sameAnswer(readStream('responses.create', cut.stream).read(), cutRead)
  })

  it('messages: text, thinking and tool uses; stop reasons in chat words', async () => {
    const emu = await testEmulator()
    const { json, stream } = await both(emu, '/api/v1/messages', {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ name: 'get_weather', input_schema: WEATHER }],
      tool_choice: { type: 'any' },
    })
    const read = textFromJson(READER['messages.create'], json)
    const thinking = json.content.find((b: any) => b.type === 'thinking')
    const tool = json.content.find((b: any) => b.type === 'tool_use')
    expect(read).toMatchObject({
      model: 'anthropic/claude-sonnet-4',
      provider: json.provider,
      choices: [{ reasoning: thinking.thinking, tool_calls: [{ name: 'get_weather', arguments: JSON.stringify(tool.input) }], finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: json.usage.input_tokens, completion_tokens: json.usage.output_tokens, cost: json.usage.cost },
    })
    const streamed = readStream('messages.create', stream).read()
    // A stream sends a tool's input as the JSON text it was written as; the JSON answer as an object.
    expect(JSON.parse(streamed.choices[0]!.tool_calls![0]!.arguments as string)).toEqual(tool.input)
    sameAnswer({ ...streamed, choices: [{ ...streamed.choices[0], tool_calls: read.choices[0]!.tool_calls }] }, read)

    const plain = await both(emu, '/api/v1/messages', { model: 'anthropic/claude-3.5-haiku', max_tokens: 8, messages: [{ role: 'user', content: USER }] })
    const plainRead = textFromJson(READER['messages.create'], plain.json)
    expect(plainRead.choices).toEqual([{ content: plain.json.content[0].text, finish_reason: 'length' }])
    sameAnswer(readStream('messages.create', plain.stream).read(), plainRead)
  })

  it('timing: the first token’s arrival, and tokens a second over the span they arrived in', async () => {
    const emu = await testEmulator()
    const { stream } = await both(emu, '/api/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: USER }] })
    const events = new SseParser().push(stream)
    const reader = readStream('chat.create', stream, 10)
    const read = reader.read()
    // Event 0 is the role, 1 the first word: it arrived at 100 + 10 ms.
    expect(read.timing!.first_token_ms).toBe(110)
    const words = events.filter((e) => e.data !== '[DONE]' && JSON.parse(e.data).choices[0]?.delta?.content).length
    const spanSeconds = ((words - 1) * 10) / 1000
    expect(read.timing!.tokens_per_second).toBeCloseTo((read.usage.completion_tokens - 1) / spanSeconds, 1)
    // All at once: no pace to keep.
    expect(readStream('chat.create', stream, 0).read().timing).toBeUndefined()
  })

  it('a stream cut part way: what arrived, no usage, and an error event noted', async () => {
    const emu = await testEmulator()
    const { stream } = await both(emu, '/api/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: USER }] })
    const reader = readStream('chat.create', stream.slice(0, Math.floor(stream.length / 2)))
    expect(reader.finished).toBe(false)
    expect(reader.reportedUsage).toBe(false)
    expect(reader.read().choices[0]!.content).toMatch(/\S/)
    const broken = new TextStreamReader(READER['messages.create'])
    broken.push({ event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) }, 5)
    expect(broken.error).toBe('Overloaded')
  })
})

describe('server-sent events', () => {
  it('gives the same events however the bytes are cut, with LF or CR LF line ends', async () => {
    const emu = await testEmulator()
    const { stream } = await both(emu, '/api/v1/responses', { model: 'openai/gpt-4o-mini', input: USER })
    const whole = new SseParser().push(stream)
    expect(whole.length).toBeGreaterThan(5)
    expect(whole[0]).toMatchObject({ event: 'response.created' })
    for (const text of [stream, stream.replace(/\n/g, '\r\n')]) {
      for (const size of [1, 2, 7, 64]) {
        const parser = new SseParser()
        const events: SseEvent[] = []
        for (let at = 0; at < text.length; at += size) events.push(...parser.push(text.slice(at, at + size)))
        events.push(...parser.end())
        expect(events).toEqual(whole)
      }
    }
  })

  it('skips comments and joins data lines; gives a last event without its blank line at the end', () => {
    const parser = new SseParser()
    expect(parser.push(': OPENROUTER PROCESSING\n\nevent: x\ndata: a\ndata: b\n\ndata: c')).toEqual([{ event: 'x', data: 'a\nb' }])
    expect(parser.end()).toEqual([{ event: null, data: 'c' }])
  })
})

describe('raw answers', () => {
  it('embeddings: the JSON as it came, the provider and the cost', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: 'hello', dimensions: 8 }, emu.keys.standard)
    expect(res.status).toBe(200)
    const bytes = Buffer.from(JSON.stringify(res.body))
    const { raw, keep } = rawFromAnswer(200, 'application/json; charset=utf-8', bytes, 'openai/text-embedding-3-small')
    expect(keep).toBe(true)
    expect(raw).toEqual({
      status: 200,
      content_type: 'application/json; charset=utf-8',
      json: res.body,
      model: 'openai/text-embedding-3-small',
      provider: res.body.provider,
      cost: res.body.usage.cost,
    })
  })

  it('speech: the bytes as base64 (the answer reports no cost); larger than RAW_ANSWER_BYTES is not kept', async () => {
    const emu = await testEmulator()
    const res = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/audio/speech',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: 'openai/gpt-4o-mini-tts', input: 'Hello there', voice: 'alloy' }),
    })
    expect(res.statusCode).toBe(200)
    const contentType = String(res.headers['content-type'])
    const { raw, keep } = rawFromAnswer(200, contentType, res.rawPayload, 'openai/gpt-4o-mini-tts')
    expect(keep).toBe(true)
    expect(Buffer.from(raw.base64!, 'base64').equals(res.rawPayload)).toBe(true)
    expect(raw.cost).toBeNull()
    expect(rawFromAnswer(200, contentType, Buffer.alloc(RAW_ANSWER_BYTES + 1), 'm').keep).toBe(false)
  })
})
