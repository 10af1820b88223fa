// The inspector's transcript of a Responses API response and of an Anthropic Messages API message,
// from their journal entries: the conversation sent (instructions or system, input items or messages,
// tool calls and their results), the answer assembled from the recorded stream's named events or read
// from the JSON (text, reasoning or thinking, function calls or tool_use), the facts, and errors in
// either envelope. The bodies are shaped as the real gateway's document shows them.
import { describe, expect, it } from 'vitest'
import { hasTranscript, transcriptOf, type TranscriptSource } from '../../../src/renderer/src/features/requests/transcript.ts'

const GEN = 'gen-1772618400-Tq7X7vmGXUEz2opic8UP'
const STREAM_HEADERS = { 'x-generation-id': GEN, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }
const JSON_HEADERS = { 'x-generation-id': GEN, 'content-type': 'application/json; charset=utf-8' }

function entry(
  operation: string,
  request: unknown,
  response: string | null,
  headers: Record<string, string>,
  more: Partial<TranscriptSource> = {},
): TranscriptSource {
  const body = JSON.stringify(request)
  return {
    operation,
    status: 200,
    aborted: false,
    duration_ms: 8.25,
    request: { headers: { 'content-type': 'application/json' }, body, body_bytes: body.length },
    response: { headers, body: response, body_bytes: response?.length ?? 0 },
    ...more,
  }
}

/** What the journal keeps of a body longer than its limit. */
const cutAt = (text: string, limit: number): string => `${text.slice(0, limit)}… (${text.length - limit} more bytes)`

/** Named events, as both APIs stream them: `event: <type>` and the data carrying the same type. */
const named = (events: Array<{ type: string } & Record<string, unknown>>): string =>
  events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('')

describe('which operations have a transcript', () => {
  it('includes the Responses and Messages APIs', () => {
    expect(hasTranscript('responses.create')).toBe(true)
    expect(hasTranscript('messages.create')).toBe(true)
    expect(hasTranscript('rerank.create')).toBe(false)
  })
})

describe('the transcript of a Responses API response', () => {
  const RESPONSE = {
    id: GEN,
    object: 'response',
    created_at: 1772618400,
    model: 'openai/gpt-4o-mini',
    error: null,
    incomplete_details: null,
    instructions: 'Be brief.',
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: true,
  }
  const USAGE = {
    input_tokens: 19,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 55,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 74,
    cost: 0.00003585,
  }
  const message = (text: string) => ({
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  })

  it('reads a JSON response: instructions, the input, the text, status, usage and cost', () => {
    const answer = { ...RESPONSE, status: 'completed', completed_at: 1772618401, output: [message('Otters hold hands.')], usage: USAGE }
    const t = transcriptOf(
      entry(
        'responses.create',
        { model: 'openai/gpt-4o-mini', instructions: 'Be brief.', input: 'Tell me about otters' },
        JSON.stringify(answer),
        JSON_HEADERS,
      ),
    )
    expect(t.kind).toBe('responses')
    expect(t.request!.messages.map((m) => [m.role, m.parts])).toEqual([
      ['instructions', [{ kind: 'text', text: 'Be brief.' }]],
      ['user', [{ kind: 'text', text: 'Tell me about otters' }]],
    ])
    expect(t.answer!.choices).toEqual([{ index: 0, content: 'Otters hold hands.', toolCalls: [], finishReason: 'completed' }])
    expect(t.finishLabel).toBe('Status')
    expect(t.tokenWords).toEqual(['input', 'output'])
    expect(t.facts).toEqual({
      model: 'openai/gpt-4o-mini',
      provider: null,
      promptTokens: 19,
      completionTokens: 55,
      cost: 0.00003585,
      cache: null,
      finishReason: 'completed',
      generationId: GEN,
      durationMs: 8.25,
      streamed: false,
    })
  })

  it('reads the input items: message parts, function calls, their outputs, reasoning; the tools and tool choice', () => {
    const request = {
      model: 'openai/gpt-4o',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this picture?' },
            { type: 'input_image', detail: 'auto', image_url: `data:image/jpeg;base64,${'A'.repeat(3000)}` },
            { type: 'input_file', filename: 'notes.pdf', file_data: 'data:application/pdf;base64,AAAA' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look it up.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'describe', arguments: '{"detail":"low"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'A cat on a mat.' },
        { role: 'assistant', content: [{ type: 'output_text', text: 'A cat.' }] },
      ],
      tools: [{ type: 'function', name: 'describe', parameters: { type: 'object' } }, { type: 'web_search_preview' }],
      tool_choice: { type: 'function', name: 'describe' },
      max_output_tokens: 200,
      reasoning: { effort: 'low' },
    }
    const t = transcriptOf(entry('responses.create', request, JSON.stringify({ ...RESPONSE, status: 'completed', output: [] }), JSON_HEADERS))
    const messages = t.request!.messages
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'tool', 'assistant'])
    expect(messages[0]!.parts).toEqual([
      { kind: 'text', text: 'What is in this picture?' },
      { kind: 'media', label: 'image: image/jpeg data URI, 3 KB' },
      { kind: 'media', label: 'file: notes.pdf' },
    ])
    expect(messages[1]!.parts).toEqual([{ kind: 'media', label: 'reasoning: Look it up.' }])
    expect(messages[2]!.toolCalls).toEqual([{ index: 2, id: 'call_1', name: 'describe', arguments: '{"detail":"low"}' }])
    expect(messages[3]).toMatchObject({ toolCallId: 'call_1', parts: [{ kind: 'text', text: 'A cat on a mat.' }] })
    expect(messages[4]!.parts).toEqual([{ kind: 'text', text: 'A cat.' }])
    expect(t.request!.tools).toEqual(['describe', 'web_search_preview'])
    expect(t.request!.toolChoice).toBe('function describe')
    expect(t.request!.options).toEqual([
      ['max_output_tokens', '200'],
      ['reasoning', '{"effort":"low"}'],
    ])
  })

  /** A response's stream, as the gateway sends it: the processing comment, named events, then [DONE]. */
  const stream = (events: Array<{ type: string } & Record<string, unknown>>, done = true): string =>
    `: OPENROUTER PROCESSING\n\n${named(events.map((e, i) => ({ ...e, sequence_number: i })))}${done ? 'data: [DONE]\n\n' : ''}`
  const pending = { ...RESPONSE, status: 'in_progress', completed_at: null, output: [], usage: null }
  const at = (output_index: number, item_id: string) => ({ output_index, item_id, content_index: 0 })

  const reasoningAndText = [
    { type: 'response.created', response: pending },
    { type: 'response.in_progress', response: pending },
    { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
    { type: 'response.reasoning_text.delta', ...at(0, 'rs_1'), delta: 'The question' },
    { type: 'response.reasoning_text.delta', ...at(0, 'rs_1'), delta: ' is about otters.' },
    { type: 'response.reasoning_summary_text.delta', output_index: 0, item_id: 'rs_1', summary_index: 0, delta: 'Otters.' },
    { type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs_1' } },
    { type: 'response.output_item.added', output_index: 1, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] } },
    { type: 'response.output_text.delta', ...at(1, 'msg_1'), delta: 'Otters', logprobs: [] },
    { type: 'response.output_text.delta', ...at(1, 'msg_1'), delta: ' hold hands.', logprobs: [] },
  ]
  const completedOutput = [
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Otters.' }],
      content: [{ type: 'reasoning_text', text: 'The question is about otters.' }],
    },
    message('Otters hold hands.'),
  ]

  it('assembles a stream from its named events: reasoning, its summary, the text, then the completed response', () => {
    const body = stream([
      ...reasoningAndText,
      { type: 'response.output_item.done', output_index: 1, item: message('Otters hold hands.') },
      { type: 'response.completed', response: { ...RESPONSE, status: 'completed', output: completedOutput, usage: USAGE } },
    ])
    const t = transcriptOf(entry('responses.create', { model: 'openai/gpt-4o-mini', input: 'Tell me about otters', stream: true }, body, STREAM_HEADERS))
    expect(t.answer!.choices).toEqual([
      {
        index: 0,
        content: 'Otters hold hands.',
        toolCalls: [],
        finishReason: 'completed',
        reasoning: 'The question is about otters.',
        reasoningSummary: 'Otters.',
      },
    ])
    expect(t.streamCut).toBe(false)
    expect(t.facts).toMatchObject({ promptTokens: 19, completionTokens: 55, cost: 0.00003585, finishReason: 'completed', generationId: GEN, streamed: true })
  })

  it('shows what came of a stream the journal cut, says so, and leaves the usage unknown', () => {
    const whole = stream([
      ...reasoningAndText,
      { type: 'response.completed', response: { ...RESPONSE, status: 'completed', output: completedOutput, usage: USAGE } },
    ])
    const limit = whole.indexOf(' hold hands.') - 20
    const t = transcriptOf(entry('responses.create', { model: 'openai/gpt-4o-mini', input: 'Hi', stream: true }, cutAt(whole, limit), STREAM_HEADERS))
    expect(t.answer!.choices[0]).toMatchObject({ content: 'Otters', reasoning: 'The question is about otters.', finishReason: null })
    expect(t.answerCut).toContain(`${whole.length - limit} more bytes were cut`)
    expect(t.streamCut).toBe(false)
    expect(t.facts.promptTokens).toBeNull()
  })

  it('says a stream that ended before response.completed (and not at an error) was cut', () => {
    const t = transcriptOf(
      entry('responses.create', { model: 'm', input: 'Hi', stream: true }, stream(reasoningAndText, false), STREAM_HEADERS, { aborted: true }),
    )
    expect(t.streamCut).toBe(true)
    expect(t.streamEnd).toBe('response.completed')
    expect(t.answer!.choices[0]!.content).toBe('Otters hold hands.')
  })

  it('joins function call arguments and takes the done event’s whole arguments', () => {
    const call = { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'get_weather', arguments: '', status: 'in_progress' }
    const body = stream(
      [
        { type: 'response.created', response: pending },
        { type: 'response.output_item.added', output_index: 0, item: call },
        { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '{"city":' },
        { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_1', delta: '"Oslo"}' },
        { type: 'response.function_call_arguments.done', output_index: 0, item_id: 'fc_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ],
      false,
    )
    const t = transcriptOf(entry('responses.create', { model: 'm', input: 'Weather?', stream: true }, body, STREAM_HEADERS))
    expect(t.answer!.choices[0]!.toolCalls).toEqual([{ index: 0, id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' }])
  })

  it('shows an incomplete response with why, and a function call in the JSON output', () => {
    const answer = {
      ...RESPONSE,
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_2', name: 'lookup', arguments: '{"q":' }],
      usage: USAGE,
    }
    const t = transcriptOf(entry('responses.create', { model: 'm', input: 'x' }, JSON.stringify(answer), JSON_HEADERS))
    expect(t.answer!.choices[0]).toEqual({
      index: 0,
      content: null,
      toolCalls: [{ index: 0, id: 'call_2', name: 'lookup', arguments: '{"q":' }],
      finishReason: 'incomplete (max_output_tokens)',
    })
  })

  it('shows a stream’s error event and the failed response, not as a cut stream', () => {
    const body = stream([
      ...reasoningAndText.slice(0, 2),
      { type: 'error', code: 'server_error', message: 'Provider returned error', param: null },
      {
        type: 'response.failed',
        response: { ...RESPONSE, status: 'failed', output: [], usage: null, error: { code: 'server_error', message: 'Provider returned error' } },
      },
    ])
    const t = transcriptOf(entry('responses.create', { model: 'm', input: 'x', stream: true }, body, STREAM_HEADERS))
    expect(t.answer!.error).toEqual({ code: 'server_error', message: 'Provider returned error' })
    expect(t.answer!.choices).toEqual([])
    expect(t.streamCut).toBe(false)
  })

  it('shows a JSON error envelope with the gateway’s message', () => {
    const body = JSON.stringify({ error: { code: 400, message: 'Field `input` is required: a string, or an array of input items' } })
    const t = transcriptOf(entry('responses.create', { model: 'm' }, body, { 'content-type': 'application/json' }, { status: 400 }))
    expect(t.answer!.error).toEqual({ code: 400, message: 'Field `input` is required: a string, or an array of input items' })
    expect(t.answer!.choices).toEqual([])
  })
})

describe('the transcript of an Anthropic Messages API message', () => {
  const HEAD = { id: 'msg_01', type: 'message', role: 'assistant', model: 'anthropic/claude-sonnet-4', provider: 'Anthropic' }
  const USAGE = { input_tokens: 43, output_tokens: 13, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard', cost: 0.000324 }

  it('reads a JSON message: the system prompt, the messages, the text, the stop reason and usage', () => {
    const request = { model: 'anthropic/claude-sonnet-4', max_tokens: 300, system: 'Be brief.', messages: [{ role: 'user', content: 'Tell me about otters' }] }
    const answer = {
      ...HEAD,
      content: [{ type: 'text', text: 'Otters hold hands.', citations: null }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: USAGE,
    }
    const t = transcriptOf(entry('messages.create', request, JSON.stringify(answer), JSON_HEADERS))
    expect(t.kind).toBe('messages')
    expect(t.finishLabel).toBe('Stop reason')
    expect(t.request!.messages.map((m) => [m.role, m.parts])).toEqual([
      ['system', [{ kind: 'text', text: 'Be brief.' }]],
      ['user', [{ kind: 'text', text: 'Tell me about otters' }]],
    ])
    expect(t.request!.options).toEqual([['max_tokens', '300']])
    expect(t.answer!.choices).toEqual([{ index: 0, content: 'Otters hold hands.', toolCalls: [], finishReason: 'end_turn' }])
    expect(t.facts).toMatchObject({
      model: 'anthropic/claude-sonnet-4',
      provider: 'Anthropic',
      promptTokens: 43,
      completionTokens: 13,
      cost: 0.000324,
      generationId: GEN,
    })
  })

  it('reads system blocks, images, tool_use blocks, each tool_result as a tool message, the tools and tool choice', () => {
    const request = {
      model: 'anthropic/claude-sonnet-4',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You see images.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather where this is?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(2048) } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Snow, -3 °C' },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    }
    const t = transcriptOf(entry('messages.create', request, JSON.stringify({ ...HEAD, content: [], stop_reason: 'end_turn', usage: USAGE }), JSON_HEADERS))
    const messages = t.request!.messages
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'tool'])
    expect(messages[1]!.parts).toEqual([
      { kind: 'text', text: 'Weather where this is?' },
      { kind: 'media', label: 'image: image/png data URI, 2 KB' },
    ])
    expect(messages[2]!.toolCalls).toEqual([{ index: 0, id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }])
    expect(messages[3]!.parts).toEqual([{ kind: 'text', text: 'And tomorrow?' }])
    expect(messages[4]).toMatchObject({ toolCallId: 'toolu_1', parts: [{ kind: 'text', text: 'Snow, -3 °C' }] })
    expect(t.request!.tools).toEqual(['get_weather'])
    expect(t.request!.toolChoice).toBe('tool get_weather')
  })

  const start = {
    type: 'message_start',
    message: { ...HEAD, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 43, output_tokens: 1 } },
  }
  const thinkingTextAndTool = [
    start,
    { type: 'ping' },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: ' the weather.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: null } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: ' check.' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: {} } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"Oslo"}' } },
    { type: 'content_block_stop', index: 2 },
  ]

  it('assembles a stream: thinking, text and tool_use blocks, the stop reason and usage from message_delta', () => {
    const body = named([
      ...thinkingTextAndTool,
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: USAGE },
      { type: 'message_stop' },
    ])
    const t = transcriptOf(entry('messages.create', { model: 'anthropic/claude-sonnet-4', max_tokens: 300, messages: [], stream: true }, body, STREAM_HEADERS))
    expect(t.answer!.choices).toEqual([
      {
        index: 0,
        content: 'Let me check.',
        toolCalls: [{ index: 0, id: 'toolu_9', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        finishReason: 'tool_use',
        reasoning: 'The user wants the weather.',
      },
    ])
    expect(t.streamCut).toBe(false)
    expect(t.facts).toMatchObject({ provider: 'Anthropic', promptTokens: 43, completionTokens: 13, cost: 0.000324, finishReason: 'tool_use', streamed: true })
  })

  it('knows only the input tokens of a stream cut before message_delta, and says it was cut', () => {
    const t = transcriptOf(
      entry('messages.create', { model: 'm', messages: [], stream: true }, named(thinkingTextAndTool.slice(0, 9)), STREAM_HEADERS, { aborted: true }),
    )
    expect(t.streamCut).toBe(true)
    expect(t.streamEnd).toBe('message_stop')
    expect(t.answer!.choices[0]).toMatchObject({ content: 'Let me', finishReason: null })
    expect(t.facts).toMatchObject({ promptTokens: 43, completionTokens: null })
  })

  it('shows a stream’s error event in Anthropic’s envelope, not as a cut stream', () => {
    const body = named([
      ...thinkingTextAndTool.slice(0, 2),
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded', error_type: 'provider_overloaded' } },
    ])
    const t = transcriptOf(entry('messages.create', { model: 'm', messages: [], stream: true }, body, STREAM_HEADERS))
    expect(t.answer!.error).toEqual({ code: 'overloaded_error', message: 'Overloaded' })
    expect(t.streamCut).toBe(false)
  })

  it('shows a JSON error in Anthropic’s envelope', () => {
    const body = JSON.stringify({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Field `messages` must not be empty', error_type: 'invalid_request' },
      request_id: 'req_1',
    })
    const t = transcriptOf(entry('messages.create', { model: 'm', messages: [] }, body, { 'content-type': 'application/json' }, { status: 400 }))
    expect(t.answer!.error).toEqual({ code: 'invalid_request_error', message: 'Field `messages` must not be empty' })
    expect(t.answer!.choices).toEqual([])
  })
})

describe('a chat answer’s reasoning and images', () => {
  it('are read from the message and from stream deltas', () => {
    const answer = {
      id: GEN,
      object: 'chat.completion',
      model: 'google/gemini-2.5-flash-image',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: 'Here it is.',
            reasoning: 'Draw an otter.',
            images: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(2048)}` } }],
          },
        },
      ],
    }
    const t = transcriptOf(entry('chat.create', { model: 'm', messages: [] }, JSON.stringify(answer), JSON_HEADERS))
    expect(t.answer!.choices[0]).toEqual({
      index: 0,
      content: 'Here it is.',
      toolCalls: [],
      finishReason: 'stop',
      reasoning: 'Draw an otter.',
      attachments: ['image: image/png data URI, 2 KB'],
    })

    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: GEN, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    const body = `${chunk({ reasoning: 'Draw' })}${chunk({ reasoning: ' it.' })}${chunk({ content: 'Done.' })}${chunk({ images: answer.choices[0]!.message.images }, 'stop')}data: [DONE]\n\n`
    const streamed = transcriptOf(entry('chat.create', { model: 'm', messages: [], stream: true }, body, STREAM_HEADERS))
    expect(streamed.answer!.choices[0]).toEqual({
      index: 0,
      content: 'Done.',
      toolCalls: [],
      finishReason: 'stop',
      reasoning: 'Draw it.',
      attachments: ['image: image/png data URI, 2 KB'],
    })
  })
})
