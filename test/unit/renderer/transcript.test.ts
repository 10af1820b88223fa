// The inspector's transcript of a chat or text completion, from its journal entry: the conversation
// sent, the answer (a recorded stream assembled, or the JSON choices) and the facts around it; cut
// bodies said to be cut, never parsed into a broken transcript.
import { describe, expect, it } from 'vitest'
import { hasTranscript, transcriptOf, type TranscriptSource } from '../../../src/renderer/src/features/requests/transcript.ts'

const ID = 'gen-1767268800-JGHzvKaMZJ4qgy0KSbiV'
const base = { id: ID, provider: 'Amazon Bedrock', model: 'amazon/nova-lite-v1', object: 'chat.completion.chunk', created: 1767268800 }
const USAGE = { prompt_tokens: 48, completion_tokens: 33, total_tokens: 81, cost: 0.0000108, is_byok: false }

/** One chat chunk of one choice, as the gateway streams it. */
const chunk = (choice: Record<string, unknown>) => ({ ...base, choices: [{ finish_reason: null, native_finish_reason: null, logprobs: null, ...choice }] })
const sse = (events: unknown[], done = true): string =>
  `: OPENROUTER PROCESSING\n\n${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}${done ? 'data: [DONE]\n\n' : ''}`
const usageChunk = { ...base, choices: [], usage: USAGE }

const STREAM_HEADERS = { 'x-generation-id': ID, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }
const JSON_HEADERS = { 'x-generation-id': ID, 'content-type': 'application/json; charset=utf-8' }

function entry(request: unknown, response: string | null, headers: Record<string, string>, more: Partial<TranscriptSource> = {}): TranscriptSource {
  const requestBody = typeof request === 'string' ? request : JSON.stringify(request)
  return {
    operation: 'chat.create',
    status: 200,
    aborted: false,
    duration_ms: 12.5,
    request: { headers: { 'content-type': 'application/json' }, body: requestBody, body_bytes: requestBody.length },
    response: { headers, body: response, body_bytes: response?.length ?? 0 },
    ...more,
  }
}

/** What the journal keeps of a body longer than its limit: the start, and how much more there was. */
const cutAt = (text: string, limit: number): string => `${text.slice(0, limit)}… (${text.length - limit} more bytes)`

const chatRequest = (extra: Record<string, unknown> = {}) => ({
  model: 'amazon/nova-lite-v1',
  messages: [{ role: 'user', content: 'Tell me about otters' }],
  ...extra,
})

describe('the transcript of a chat completion', () => {
  it('is made for chat and text completions only', () => {
    expect(hasTranscript('chat.create')).toBe(true)
    expect(hasTranscript('completions.create')).toBe(true)
    expect(hasTranscript('embeddings.create')).toBe(false)
  })

  it('assembles a stream: content deltas joined, the finish reason, usage, cost, the generation id and timing', () => {
    const body = sse([
      chunk({ index: 0, delta: { role: 'assistant', content: '' } }),
      chunk({ index: 0, delta: { content: 'About' } }),
      chunk({ index: 0, delta: { content: ' otters:' } }),
      chunk({ index: 0, delta: { content: ' they swim.' } }),
      chunk({ index: 0, delta: {}, finish_reason: 'stop' }),
      usageChunk,
    ])
    const t = transcriptOf(entry(chatRequest({ stream: true }), body, STREAM_HEADERS))
    expect(t.kind).toBe('chat')
    expect(t.request?.messages).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'Tell me about otters' }], toolCalls: [], toolCallId: null, name: null },
    ])
    expect(t.answer?.choices).toEqual([{ index: 0, content: 'About otters: they swim.', toolCalls: [], finishReason: 'stop' }])
    expect(t.streamCut).toBe(false)
    expect(t.answerCut).toBeNull()
    expect(t.facts).toEqual({
      model: 'amazon/nova-lite-v1',
      provider: 'Amazon Bedrock',
      promptTokens: 48,
      completionTokens: 33,
      cost: 0.0000108,
      cache: null,
      finishReason: 'stop',
      generationId: ID,
      durationMs: 12.5,
      streamed: true,
    })
  })

  it('shows the prompt cache’s tokens read and written, where the usage has any', () => {
    const cached = { ...USAGE, prompt_tokens_details: { cached_tokens: 1408, cache_write_tokens: 40, audio_tokens: 0 } }
    const answer = { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }] }
    const t = transcriptOf(entry(chatRequest(), JSON.stringify({ ...answer, usage: cached }), JSON_HEADERS))
    expect(t.facts.cache).toEqual({ read: 1408, written: 40 })
    const none = { ...USAGE, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 } }
    expect(transcriptOf(entry(chatRequest(), JSON.stringify({ ...answer, usage: none }), JSON_HEADERS)).facts.cache).toBeNull()
  })

  it('joins tool-call argument deltas per call index, across chunks and interleaved calls', () => {
    const body = sse([
      chunk({ index: 0, delta: { role: 'assistant', content: '' } }),
      chunk({ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] } }),
      chunk({ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] } }),
      chunk({ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"zone"' } }] } }),
      chunk({ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] } }),
      chunk({ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: ':"UTC"}' } }] } }),
      chunk({ index: 0, delta: {}, finish_reason: 'tool_calls' }),
      usageChunk,
    ])
    const t = transcriptOf(entry(chatRequest({ stream: true, tools: [], tool_choice: 'required' }), body, STREAM_HEADERS))
    const choice = t.answer!.choices[0]!
    expect(choice.content).toBe('')
    expect(choice.toolCalls).toEqual([
      { index: 0, id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { index: 1, id: 'call_b', name: 'get_time', arguments: '{"zone":"UTC"}' },
    ])
    expect(t.facts.finishReason).toBe('tool_calls')
  })

  it('keeps the choices of n > 1 apart, streamed and as JSON', () => {
    const body = sse([
      chunk({ index: 0, delta: { role: 'assistant', content: '' } }),
      chunk({ index: 0, delta: { content: 'First' } }),
      chunk({ index: 0, delta: {}, finish_reason: 'stop' }),
      chunk({ index: 1, delta: { role: 'assistant', content: '' } }),
      chunk({ index: 1, delta: { content: 'Second,' } }),
      chunk({ index: 1, delta: { content: ' cut' } }),
      chunk({ index: 1, delta: {}, finish_reason: 'length' }),
      usageChunk,
    ])
    const streamed = transcriptOf(entry(chatRequest({ stream: true, n: 2 }), body, STREAM_HEADERS))
    expect(streamed.answer!.choices.map((c) => [c.index, c.content, c.finishReason])).toEqual([
      [0, 'First', 'stop'],
      [1, 'Second, cut', 'length'],
    ])
    expect(streamed.facts.finishReason).toBe('stop, length')
    expect(streamed.request?.options).toContainEqual(['n', '2'])

    const json = {
      ...base,
      object: 'chat.completion',
      choices: [
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'One' } },
        {
          index: 1,
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } }] },
        },
      ],
      usage: USAGE,
    }
    const whole = transcriptOf(entry(chatRequest({ n: 2 }), JSON.stringify(json), JSON_HEADERS))
    expect(whole.facts.streamed).toBe(false)
    expect(whole.answer!.choices).toEqual([
      { index: 0, content: 'One', toolCalls: [], finishReason: 'stop' },
      { index: 1, content: null, toolCalls: [{ index: 0, id: 'call_x', name: 'lookup', arguments: '{"q":1}' }], finishReason: 'tool_calls' },
    ])
    expect(whole.facts.promptTokens).toBe(48)
  })

  it('shows an error chunk as an error, after the text that came before it', () => {
    const error = { code: 502, message: 'Provider returned error', metadata: { error_type: 'provider_unavailable' } }
    const body = sse(
      [
        chunk({ index: 0, delta: { role: 'assistant', content: '' } }),
        chunk({ index: 0, delta: { content: 'Half an' } }),
        { ...base, error, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: 'error', logprobs: null }] },
      ],
      false,
    )
    const t = transcriptOf(entry(chatRequest({ stream: true }), body, STREAM_HEADERS))
    expect(t.answer!.error).toEqual({ code: 502, message: 'Provider returned error' })
    expect(t.answer!.choices[0]).toMatchObject({ content: 'Half an', finishReason: 'error' })
    expect(t.facts.finishReason).toBe('error')
    // The error chunk ends the stream without [DONE] on purpose: that is not a cut connection.
    expect(t.streamCut).toBe(false)
  })

  it('says when a stream was cut before [DONE]', () => {
    const body = sse([chunk({ index: 0, delta: { role: 'assistant', content: '' } }), chunk({ index: 0, delta: { content: 'Only this' } })], false)
    const t = transcriptOf(entry(chatRequest({ stream: true }), body, STREAM_HEADERS, { aborted: true }))
    expect(t.streamCut).toBe(true)
    expect(t.answerCut).toBeNull()
    expect(t.answer!.choices[0]).toMatchObject({ content: 'Only this', finishReason: null })
    expect(t.facts.promptTokens).toBeNull()
  })

  it('shows a stream the journal cut at its limit up to the cut, says so, and does not call it a cut connection', () => {
    const whole = sse([
      chunk({ index: 0, delta: { role: 'assistant', content: '' } }),
      chunk({ index: 0, delta: { content: 'Kept' } }),
      chunk({ index: 0, delta: { content: ' and lost' } }),
      chunk({ index: 0, delta: {}, finish_reason: 'stop' }),
      usageChunk,
    ])
    // The limit falls inside the third chunk: that event is incomplete and is left out.
    const limit = whole.indexOf(' and lost') - 10
    const t = transcriptOf(entry(chatRequest({ stream: true }), cutAt(whole, limit), STREAM_HEADERS))
    expect(t.answer!.choices[0]).toMatchObject({ content: 'Kept', finishReason: null })
    expect(t.answerCut).toContain(`${whole.length - limit} more bytes were cut`)
    expect(t.streamCut).toBe(false)
    expect(t.facts.completionTokens).toBeNull()
  })

  it('does not parse a JSON answer or a request the journal cut: it says so', () => {
    const json = JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { content: 'x'.repeat(200) } }] })
    const answerCut = transcriptOf(entry(chatRequest(), cutAt(json, 100), JSON_HEADERS))
    expect(answerCut.answer).toBeNull()
    expect(answerCut.answerProblem).toMatch(/kept only the first part of the answer \(\d+ more bytes were cut\)/)
    // The generation id still comes from the header.
    expect(answerCut.facts.generationId).toBe(ID)

    const request = JSON.stringify(chatRequest({ messages: [{ role: 'user', content: 'y'.repeat(300) }] }))
    const requestCut = transcriptOf(entry(cutAt(request, 120), json, JSON_HEADERS))
    expect(requestCut.request).toBeNull()
    expect(requestCut.requestProblem).toMatch(/kept only the first part of the request body \(\d+ more bytes were cut\)/)
    expect(requestCut.answer!.choices[0]!.content).toBe('x'.repeat(200))

    const notKept = transcriptOf(entry(chatRequest(), '(5000000 bytes, too large to record)', JSON_HEADERS))
    expect(notKept.answerProblem).toBe("The journal did not keep the answer's body (5000000 bytes, too large to record).")
  })

  it('reads every role, content parts with media placeholders, tool calls and tool results', () => {
    const request = {
      model: 'openai/gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: 'Use tools.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(4000)}` } },
            { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
            { type: 'file', file: { filename: 'notes.pdf', file_data: 'data:application/pdf;base64,AAAA' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'describe', arguments: '{"detail":"low"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'A cat.' },
      ],
      tools: [{ type: 'function', function: { name: 'describe', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'describe' } },
      temperature: 0.2,
      seed: 7,
    }
    const t = transcriptOf(entry(request, JSON.stringify({ ...base, object: 'chat.completion', choices: [] }), JSON_HEADERS))
    const messages = t.request!.messages
    expect(messages.map((m) => m.role)).toEqual(['system', 'developer', 'user', 'assistant', 'tool'])
    expect(messages[2]!.parts).toEqual([
      { kind: 'text', text: 'What is this?' },
      { kind: 'media', label: 'image: image/png data URI, 4 KB' },
      { kind: 'media', label: 'audio (wav)' },
      { kind: 'media', label: 'file: notes.pdf' },
    ])
    expect(messages[3]!.toolCalls).toEqual([{ index: 0, id: 'call_1', name: 'describe', arguments: '{"detail":"low"}' }])
    expect(messages[4]).toMatchObject({ toolCallId: 'call_1', parts: [{ kind: 'text', text: 'A cat.' }] })
    expect(t.request!.tools).toEqual(['describe'])
    expect(t.request!.toolChoice).toBe('function describe')
    expect(t.request!.options).toEqual([
      ['temperature', '0.2'],
      ['seed', '7'],
    ])
  })

  it('shows a JSON error answer (a 402) with the gateway message', () => {
    const body = JSON.stringify({ error: { code: 402, message: 'Insufficient credits. Add more using https://example.test/credits' } })
    const t = transcriptOf(entry(chatRequest({ stream: true }), body, { 'content-type': 'application/json' }, { status: 402 }))
    expect(t.facts.streamed).toBe(false)
    expect(t.answer!.error).toEqual({ code: 402, message: 'Insufficient credits. Add more using https://example.test/credits' })
    expect(t.answer!.choices).toEqual([])
    expect(t.facts.generationId).toBeNull()
  })

  it('says there is no answer when the connection was dropped before one', () => {
    const t = transcriptOf(entry(chatRequest(), null, {}, { status: 0, aborted: true }))
    expect(t.answer).toBeNull()
    expect(t.answerProblem).toMatch(/connection was closed before/)
  })
})

describe('the transcript of a text completion', () => {
  it('shows the prompt and the streamed text', () => {
    const text = (piece: Record<string, unknown>) => ({
      ...base,
      object: 'text_completion',
      choices: [{ index: 0, logprobs: null, finish_reason: null, ...piece }],
    })
    const body = sse([
      text({ text: 'Once' }),
      text({ text: ' upon' }),
      text({ text: '', finish_reason: 'length' }),
      { ...usageChunk, object: 'text_completion' },
    ])
    const t = transcriptOf({
      ...entry({ model: 'openai/gpt-4o', prompt: 'Start a story', stream: true }, body, STREAM_HEADERS),
      operation: 'completions.create',
    })
    expect(t.kind).toBe('text')
    expect(t.request!.messages).toEqual([{ role: 'prompt', parts: [{ kind: 'text', text: 'Start a story' }], toolCalls: [], toolCallId: null, name: null }])
    expect(t.answer!.choices).toEqual([{ index: 0, content: 'Once upon', toolCalls: [], finishReason: 'length' }])
  })
})
