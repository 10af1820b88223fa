// The parts of a chat request with several shapes, read directly: messages, tools, tool_choice and
// response_format. Each bad input is a 400 naming its place (the field) and what is wrong with it.
import { describe, expect, it } from 'vitest'
import {
  mediaTokens,
  parseMessages,
  parseResponseFormat,
  parseToolChoice,
  parseTools,
  parseToolsAt,
  SCHEMA_DEPTH,
  type Tool,
} from '../../../src/emulator/modules/text/text.input.ts'
import { IMAGE_TOKENS } from '../../../src/emulator/core/tokens.ts'
import { fieldRefusal, refusal } from '../../helpers/refusal.ts'

const PART_TYPES = 'text, image_url, input_audio, file, video_url, input_video'
/** The gateway's server tools and the web search shorthand, as chat's `tools` takes them (the real document's union). */
const CHAT_TYPES = [
  ...['advisor', 'bash', 'datetime', 'experimental__search_models', 'files', 'fusion', 'image_generation', 'subagent', 'web_fetch', 'web_search'].map(
    (t) => `openrouter:${t}`,
  ),
  'web_search',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'web_search_2025_08_26',
].join(', ')
const NAME_RULE = 'must be 1 to 64 letters, digits, _ or -'
const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', function: { name, ...extra } })

describe('parseMessages', () => {
  it('reads each role, text content as it is, and parts joined by new lines with media counted', () => {
    const messages = parseMessages([
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: '' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          { type: 'text', text: 'And this?' },
          { type: 'input_audio', input_audio: { data: 'x', format: 'wav' } },
          { type: 'file', file: {} },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
    ])
    expect(messages).toEqual([
      { role: 'system', text: 'Be brief.', media: 0, toolCalls: [] },
      { role: 'developer', text: '', media: 0, toolCalls: [] },
      { role: 'user', text: 'What is this?\nAnd this?', media: 3, toolCalls: [] },
      { role: 'assistant', text: '', media: 0, toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{}' } }] },
      { role: 'tool', text: 'a cat', media: 0, toolCalls: [] },
    ])
    expect(mediaTokens(messages)).toBe(3 * IMAGE_TOKENS)
  })

  it('keeps tool calls of assistant messages only', () => {
    const [user] = parseMessages([{ role: 'user', content: 'hi', tool_calls: 'ignored' }])
    expect(user!.toolCalls).toEqual([])
  })

  it.each<[string, unknown[], ReturnType<typeof fieldRefusal>]>([
    ['no messages', [], fieldRefusal('messages', 'must not be empty')],
    ['a message that is not an object', ['hi'], fieldRefusal('messages[0]', 'must be an object with `role` and `content`')],
    ['an unknown role', [{ role: 'bot', content: 'x' }], fieldRefusal('messages[0].role', 'must be one of system, developer, user, assistant, tool')],
    ['a user message without content', [{ role: 'user' }], fieldRefusal('messages[0].content', 'is required')],
    ['content of another type', [{ role: 'user', content: 42 }], fieldRefusal('messages[0].content', 'must be a string or an array of content parts')],
    ['a part that is not an object', [{ role: 'user', content: ['hi'] }], fieldRefusal('messages[0].content[0]', 'must be a content part object')],
    ['a text part without text', [{ role: 'user', content: [{ type: 'text', text: 3 }] }], fieldRefusal('messages[0].content[0].text', 'must be a string')],
    [
      'an image part without a URL',
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'image_url', image_url: { url: '' } },
          ],
        },
      ],
      fieldRefusal('messages[0].content[1].image_url.url', 'must be a non-empty string (an image URL or data URI)'),
    ],
    ['a part of an unknown type', [{ role: 'user', content: [{ type: 'html' }] }], fieldRefusal('messages[0].content[0].type', `must be one of ${PART_TYPES}`)],
    [
      'a tool message without tool_call_id',
      [
        { role: 'user', content: 'a' },
        { role: 'tool', content: 'b' },
      ],
      fieldRefusal('messages[1].tool_call_id', 'must be a non-empty string: the id of the tool call this answers'),
    ],
    ['tool_calls that are not a list', [{ role: 'assistant', tool_calls: {} }], fieldRefusal('messages[0].tool_calls', 'must be an array of tool calls')],
    ['a tool call that is not an object', [{ role: 'assistant', tool_calls: [1] }], fieldRefusal('messages[0].tool_calls[0]', 'must be an object')],
    [
      'a tool call without an id',
      [{ role: 'assistant', tool_calls: [{ id: '', function: { name: 'a', arguments: '{}' } }] }],
      fieldRefusal('messages[0].tool_calls[0].id', 'must be a non-empty string'),
    ],
    [
      'a tool call without a function',
      [{ role: 'assistant', tool_calls: [{ id: 'c' }] }],
      fieldRefusal('messages[0].tool_calls[0].function', 'must be an object with `name` and `arguments`'),
    ],
    [
      'a tool call without a name',
      [{ role: 'assistant', tool_calls: [{ id: 'c', function: { arguments: '{}' } }] }],
      fieldRefusal('messages[0].tool_calls[0].function.name', 'must be a non-empty string'),
    ],
    [
      'tool call arguments that are not a string',
      [{ role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'a', arguments: {} } }] }],
      fieldRefusal('messages[0].tool_calls[0].function.arguments', 'must be a string (JSON)'),
    ],
  ])('refuses %s', (_, messages, expected) => {
    expect(refusal(() => parseMessages(messages))).toEqual(expected)
  })
})

describe('parseTools', () => {
  it('takes every server tool of the real document: the functions with their places in `tools`, and the datetime tool’s zone', () => {
    const server = CHAT_TYPES.split(', ').map((type) => ({ type }))
    expect(parseToolsAt([...server, fn('a'), { type: 'openrouter:web_search', parameters: { max_results: 2 } }, fn('b')])).toEqual({
      tools: [expect.objectContaining({ name: 'a' }), expect.objectContaining({ name: 'b' })],
      places: [server.length, server.length + 2],
      // `openrouter:datetime` is among them: the one server tool the engine runs (its zone, UTC by default).
      datetime: { timezone: 'UTC' },
      serverTypes: new Set(CHAT_TYPES.split(', ')),
    })
  })

  it('gives a tool without parameters an empty object schema and without description an empty one', () => {
    expect(parseTools(undefined)).toEqual([])
    expect(parseTools(null)).toEqual([])
    expect(
      parseTools([fn('get_weather'), fn('Search-2', { description: 'Find', parameters: { type: 'object', properties: { q: { type: 'string' } } } })]),
    ).toEqual([
      { name: 'get_weather', description: '', parameters: { type: 'object', properties: {} } },
      { name: 'Search-2', description: 'Find', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
    ])
  })

  it('takes a draft-07 or a 2020-12 schema, keeping its $schema', () => {
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { id: { type: 'integer' } },
      properties: { id: { $ref: '#/$defs/id' } },
    }
    expect(parseTools([fn('a', { parameters })])[0]!.parameters).toBe(parameters)
    expect(parseTools([fn('b', { parameters: { $schema: 'http://json-schema.org/draft-07/schema#', definitions: {} } })])).toHaveLength(1)
  })

  it.each<[string, unknown[], ReturnType<typeof fieldRefusal>]>([
    ['a tool that is not an object', ['get_weather'], fieldRefusal('tools[0]', 'must be an object')],
    ['another type', [{ type: 'retrieval', function: { name: 'a' } }], fieldRefusal('tools[0].type', `must be one of function, ${CHAT_TYPES}`)],
    ['a tool without function', [{ type: 'function' }], fieldRefusal('tools[0].function', 'must be an object with `name`')],
    ['a name with a space', [fn('get weather')], fieldRefusal('tools[0].function.name', NAME_RULE)],
    ['a name of 65 characters', [fn('a'.repeat(65))], fieldRefusal('tools[0].function.name', NAME_RULE)],
    ['a repeated name', [fn('a'), fn('b'), fn('a')], fieldRefusal('tools[2].function.name', 'repeats the name a')],
    ['a description that is not a string', [fn('a', { description: 1 })], fieldRefusal('tools[0].function.description', 'must be a string')],
    ['parameters that are not an object', [fn('a', { parameters: [] })], fieldRefusal('tools[0].function.parameters', 'must be a JSON Schema object')],
    [
      'an enum that repeats a value',
      [fn('a', { parameters: { type: 'string', enum: ['x', 'y', 'x'] } })],
      fieldRefusal('tools[0].function.parameters', 'is not a valid JSON Schema: enum repeats "x"'),
    ],
    [
      'a required list that repeats a name',
      [fn('a', { parameters: { type: 'object', required: ['q', 'q'] } })],
      fieldRefusal('tools[0].function.parameters', 'is not a valid JSON Schema: required repeats "q"'),
    ],
  ])('refuses %s', (_, tools, expected) => {
    expect(refusal(() => parseTools(tools))).toEqual(expected)
  })

  it('refuses a schema the meta-schema does not accept, naming the keyword', () => {
    const refused = refusal(() => parseTools([fn('a', { parameters: { type: 'object', properties: { q: { type: 'strin' } } } })]))
    expect(refused.metadata).toMatchObject({ field: 'tools[0].function.parameters' })
    expect(refused.message).toMatch(/^Field `tools\[0\]\.function\.parameters` is not a valid JSON Schema: schema\/properties\/q\/type /)
  })

  it(`refuses a schema nested deeper than ${SCHEMA_DEPTH} levels of JSON, and takes one just within`, () => {
    const nested = (levels: number) => {
      let schema: Record<string, unknown> = { type: 'string' }
      // Each `items` is one more level of JSON objects (`properties` would be two: the map and the subschema).
      for (let i = 0; i < levels; i++) schema = { type: 'array', items: schema }
      return schema
    }
    expect(parseTools([fn('a', { parameters: nested(SCHEMA_DEPTH) })])).toHaveLength(1)
    expect(refusal(() => parseTools([fn('a', { parameters: nested(SCHEMA_DEPTH + 1) })]))).toEqual(
      fieldRefusal('tools[0].function.parameters', `nests deeper than ${SCHEMA_DEPTH} levels`),
    )
  })

  it('checks an enum of 60,000 distinct values without comparing every pair', () => {
    const values = Array.from({ length: 60_000 }, (_, i) => `v${i}`)
    expect(parseTools([fn('a', { parameters: { type: 'string', enum: values } })])[0]!.parameters).toEqual({ type: 'string', enum: values })
  })
})

describe('parseToolChoice', () => {
  const tools: Tool[] = parseTools([fn('get_weather'), fn('search')])

  it('defaults to auto with tools and none without', () => {
    expect(parseToolChoice(undefined, tools)).toEqual({ kind: 'auto' })
    expect(parseToolChoice(null, [])).toEqual({ kind: 'none' })
  })

  it('takes the three words and a named function of the request', () => {
    expect(parseToolChoice('auto', tools)).toEqual({ kind: 'auto' })
    expect(parseToolChoice('none', tools)).toEqual({ kind: 'none' })
    expect(parseToolChoice('required', tools)).toEqual({ kind: 'required' })
    expect(parseToolChoice('none', [])).toEqual({ kind: 'none' })
    expect(parseToolChoice({ type: 'function', function: { name: 'search' } }, tools)).toEqual({ kind: 'named', name: 'search' })
  })

  it('refuses "required" without tools, and a function the request does not have', () => {
    expect(refusal(() => parseToolChoice('required', []))).toEqual(fieldRefusal('tool_choice', 'is "required" but the request has no `tools`'))
    expect(refusal(() => parseToolChoice({ type: 'function', function: { name: 'book' } }, tools))).toEqual(
      fieldRefusal('tool_choice.function.name', "names book, which is not among the request's `tools`"),
    )
  })

  it.each(['always', { type: 'function' }, { type: 'tool', function: { name: 'search' } }, { type: 'function', function: { name: 3 } }, 1])(
    'refuses %j',
    (choice) => {
      expect(refusal(() => parseToolChoice(choice, tools))).toEqual(
        fieldRefusal(
          'tool_choice',
          'must be "auto", "none", "required", {"type":"function","function":{"name":"..."}} or {"type": a server tool the request lists}',
        ),
      )
    },
  )

  it('takes a server tool the request lists by its type (the answer is text), and refuses one it does not list', () => {
    const servers = new Set(['openrouter:web_search'])
    expect(parseToolChoice({ type: 'openrouter:web_search' }, tools, servers)).toEqual({ kind: 'none' })
    expect(refusal(() => parseToolChoice({ type: 'web_search' }, tools, servers))).toEqual(
      fieldRefusal('tool_choice.type', "names web_search, which is not among the request's `tools`"),
    )
  })
})

describe('parseResponseFormat', () => {
  it('reads text (the default), json_object and json_schema (an empty schema when none is given)', () => {
    expect(parseResponseFormat(undefined)).toEqual({ kind: 'text' })
    expect(parseResponseFormat(null)).toEqual({ kind: 'text' })
    expect(parseResponseFormat({ type: 'text' })).toEqual({ kind: 'text' })
    expect(parseResponseFormat({ type: 'json_object' })).toEqual({ kind: 'json_object' })
    expect(parseResponseFormat({ type: 'json_schema', json_schema: { name: 'answer' } })).toEqual({ kind: 'json_schema', name: 'answer', schema: {} })
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
    expect(parseResponseFormat({ type: 'json_schema', json_schema: { name: 'n_1', schema, strict: true } })).toEqual({
      kind: 'json_schema',
      name: 'n_1',
      schema,
    })
  })

  it.each<[unknown, ReturnType<typeof fieldRefusal>]>([
    ['json', fieldRefusal('response_format', 'must be an object with `type`')],
    [{ type: 'xml' }, fieldRefusal('response_format.type', 'must be one of text, json_object, json_schema')],
    [{}, fieldRefusal('response_format.type', 'must be one of text, json_object, json_schema')],
    [{ type: 'json_schema' }, fieldRefusal('response_format.json_schema', 'is required: {"name": "...", "schema": {...}}')],
    [{ type: 'json_schema', json_schema: { schema: {} } }, fieldRefusal('response_format.json_schema.name', NAME_RULE)],
    [{ type: 'json_schema', json_schema: { name: 'my answer' } }, fieldRefusal('response_format.json_schema.name', NAME_RULE)],
    [{ type: 'json_schema', json_schema: { name: 'a', schema: 'object' } }, fieldRefusal('response_format.json_schema.schema', 'must be a JSON Schema object')],
  ])('refuses %j', (format, expected) => {
    expect(refusal(() => parseResponseFormat(format))).toEqual(expected)
  })

  it('names the schema of the format when it is not valid JSON Schema', () => {
    const refused = refusal(() => parseResponseFormat({ type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object', minProperties: -1 } } }))
    expect(refused.metadata).toMatchObject({ field: 'response_format.json_schema.schema' })
    expect(refused.message).toMatch(/^Field `response_format\.json_schema\.schema` is not a valid JSON Schema: /)
  })
})
