// Requests in normal form (recordings-normal.service.ts): what makes two requests the same recording's. The
// same conversation through chat and the Responses API gives byte-equal forms; what changes no answer
// (ids of tool calls, spacing of arguments, `$schema`, defaults, a developer role, routing fields) is
// left out; what changes one (a word, max tokens, a tool's schema) is kept; key order is fixed.
import { describe, expect, it } from 'vitest'
import { chatAsk } from '../../../src/emulator/modules/chat/chat.service.ts'
import type { ChatBody } from '../../../src/emulator/modules/chat/chat.schemas.ts'
import { canonicalText, normalRawRequest, normalTextRequest, sortedKeys } from '../../../src/emulator/modules/recordings/recordings-normal.service.ts'
import { askOf } from '../../../src/emulator/modules/responses/responses.service.ts'
import type { ResponsesBody } from '../../../src/emulator/modules/responses/responses.schemas.ts'

const MODEL = 'openai/gpt-4o-mini'
const WEATHER = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }

const fromChat = (body: Record<string, unknown>) => normalTextRequest(chatAsk({ model: MODEL, ...body } as ChatBody))
const fromResponses = (body: Record<string, unknown>) => normalTextRequest(askOf({ model: MODEL, ...body } as ResponsesBody))

describe('normalTextRequest', () => {
  it('writes a chat request in chat’s shape, keys in a fixed order, defaults left out', () => {
    const normal = fromChat({
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather' },
            { type: 'text', text: 'in Oslo?' },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'ignored', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', ...WEATHER } },
        },
      ],
      tool_choice: 'auto',
      max_tokens: 50,
      n: 1,
      stop: [],
      temperature: 0.2,
      user: 'someone',
      stream: true,
    })
    expect(JSON.stringify(normal)).toBe(
      JSON.stringify({
        model: MODEL,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather\nin Oslo?' },
        ],
        tools: [{ name: 'get_weather', parameters: { properties: { city: { type: 'string' } }, required: ['city'], type: 'object' } }],
        max_tokens: 50,
      }),
    )
  })

  it('gives the same form for the same conversation through chat and the Responses API', () => {
    const chat = fromChat({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }],
      max_tokens: 64,
    })
    const responses = fromResponses({
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'Weather in Oslo?' },
        { type: 'function_call', call_id: 'fc_other_id', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'fc_other_id', output: 'Sunny' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER }],
      max_output_tokens: 64,
    })
    expect(JSON.stringify(responses)).toBe(JSON.stringify(chat))
    expect(chat.messages[2]).toEqual({ role: 'assistant', content: '', tool_calls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }] })
  })

  it('keeps what changes an answer', () => {
    const base = { messages: [{ role: 'user', content: 'Hi' }] }
    const forms = [
      fromChat(base),
      fromChat({ messages: [{ role: 'user', content: 'Hi!' }] }),
      fromChat({ ...base, model: 'openai/gpt-4o' }),
      fromChat({ ...base, max_tokens: 10 }),
      fromChat({ ...base, seed: 7 }),
      fromChat({ ...base, n: 2 }),
      fromChat({ ...base, stop: ['.'] }),
      fromChat({ ...base, response_format: { type: 'json_object' } }),
      fromChat({ ...base, reasoning: { effort: 'high' } }),
      fromChat({ ...base, tools: [{ type: 'function', function: { name: 'f' } }] }),
      fromChat({ ...base, tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' }),
    ].map((form) => JSON.stringify(form))
    expect(new Set(forms).size).toBe(forms.length)
    expect(fromChat({ ...base, tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'required' }).tool_choice).toBe('required')
  })
})

describe('canonicalText', () => {
  it('makes a hand-written request equal to the one a client sends', () => {
    const written = canonicalText({
      model: MODEL,
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'assistant', content: '', tool_calls: [{ name: 'f', arguments: { b: 1, a: [1, { d: 2, c: 3 }] } }] },
      ],
      tools: [{ name: 'f', parameters: { type: 'object', $schema: 'x' } }],
      tool_choice: 'auto',
      n: 1,
      reasoning: false,
    })
    expect(written).toEqual({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'assistant', content: '', tool_calls: [{ name: 'f', arguments: '{"a":[1,{"c":3,"d":2}],"b":1}' }] },
      ],
      tools: [{ name: 'f', parameters: { type: 'object' } }],
    })
    // Arguments that are no JSON (cut by max tokens) are kept as they were.
    const cut = canonicalText({ model: MODEL, messages: [{ role: 'assistant', content: '', tool_calls: [{ name: 'f', arguments: '{"a":' }] }] })
    expect(cut.messages[0]!.tool_calls).toEqual([{ name: 'f', arguments: '{"a":' }])
  })
})

describe('normalRawRequest', () => {
  it('drops who asks and how it is routed, and sorts keys', () => {
    const normal = normalRawRequest('embeddings.create', {
      user: 'u',
      provider: { order: ['OpenAI'] },
      model: 'openai/text-embedding-3-small',
      input: ['b', 'a'],
      dimensions: 8,
      metadata: { run: 1 },
    })
    expect(JSON.stringify(normal)).toBe('{"dimensions":8,"input":["b","a"],"model":"openai/text-embedding-3-small"}')
    expect(normalRawRequest('audio.transcriptions', undefined)).toEqual({})
  })

  it('sortedKeys sorts every level and keeps arrays in order', () => {
    expect(JSON.stringify(sortedKeys({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: null }))).toBe('{"a":null,"b":{"c":[{"e":2,"f":1}],"d":1}}')
  })
})
