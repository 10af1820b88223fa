// Reasoning details in chat completions: a reasoning answer's `message.reasoning_details` in the
// provider's format (by the model's author), streamed as `delta.reasoning_details` before the content,
// on tool-call answers too; sent back on a later assistant message they are accepted as sent, and a
// malformed one is a 400 naming its place. Answers that did not ask for reasoning have none.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { describe, expect, it } from 'vitest'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const USER = [{ role: 'user', content: 'Why do lighthouses flash in patterns?' }]
type Detail = Record<string, unknown>

const chat = (emu: TestEmulator, body: Record<string, unknown>) =>
  emu.send('POST', '/api/v1/chat/completions', { messages: USER, seed: 7, reasoning: { effort: 'low' }, ...body }, emu.keys.standard)

async function streamed(emu: TestEmulator, body: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const res = await emu.app.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
    payload: { messages: USER, seed: 7, reasoning: { effort: 'low' }, stream: true, ...body },
  })
  const events: EventSourceMessage[] = []
  createParser({ onEvent: (e) => events.push(e) }).feed(res.body)
  return events.filter((e) => e.data !== '[DONE]').flatMap((e) => (JSON.parse(e.data).choices as Array<{ delta: Record<string, unknown> }>).map((c) => c.delta))
}

/** Stream deltas' details put together as the AI SDK provider does: text and summary pieces joined, the rest appended. */
function accumulate(deltas: Array<Record<string, unknown>>): Detail[] {
  const all: Detail[] = []
  for (const detail of deltas.flatMap((d) => (d.reasoning_details as Detail[] | undefined) ?? [])) {
    const last = all.at(-1)
    if (last && last.type === detail.type && detail.type === 'reasoning.text')
      Object.assign(last, { text: `${last.text as string}${detail.text as string}`, signature: last.signature ?? detail.signature })
    else if (last && last.type === detail.type && detail.type === 'reasoning.summary')
      Object.assign(last, { summary: `${last.summary as string}${detail.summary as string}` })
    else all.push({ ...detail })
  }
  return all
}

describe('chat reasoning_details', () => {
  it('by author: anthropic text with a signature, openai summary and encrypted, google text and encrypted, others text', async () => {
    const emu = await testEmulator()
    const claude = (await chat(emu, { model: 'anthropic/claude-sonnet-4' })).body.choices[0].message
    expect(claude.reasoning_details).toEqual([
      { type: 'reasoning.text', text: claude.reasoning, signature: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/), format: 'anthropic-claude-v1', index: 0 },
    ])
    const o4 = (await chat(emu, { model: 'openai/o4-mini' })).body.choices[0].message
    expect(o4.reasoning_details).toEqual([
      { type: 'reasoning.summary', summary: o4.reasoning, id: expect.stringMatching(/^rs_[0-9a-f]{32}$/), format: 'openai-responses-v1', index: 0 },
      {
        type: 'reasoning.encrypted',
        data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
        id: o4.reasoning_details[0].id,
        format: 'openai-responses-v1',
        index: 0,
      },
    ])
    // Encrypted data never shows the thought.
    expect(Buffer.from(o4.reasoning_details[1].data, 'base64').toString('latin1')).not.toContain('question')
    const gemini = (await chat(emu, { model: 'google/gemini-2.5-flash' })).body.choices[0].message
    expect(gemini.reasoning_details.map((d: Detail) => [d.type, d.format, d.index])).toEqual([
      ['reasoning.text', 'google-gemini-v1', 0],
      ['reasoning.encrypted', 'google-gemini-v1', 1],
    ])
    // The same request, the same details (deterministic: a hash of the model and the thought).
    expect((await chat(emu, { model: 'openai/o4-mini' })).body.choices[0].message.reasoning_details).toEqual(o4.reasoning_details)
  })

  it('absent where reasoning was not asked for or the model does not reason', async () => {
    const emu = await testEmulator()
    const plain = (await chat(emu, { model: 'openai/o4-mini', reasoning: undefined })).body.choices[0].message
    expect(plain).not.toHaveProperty('reasoning_details')
    const nonReasoning = (await chat(emu, { model: 'openai/gpt-4o-mini' })).body.choices[0].message
    expect(nonReasoning).not.toHaveProperty('reasoning_details')
    const deltas = await streamed(emu, { model: 'openai/o4-mini', reasoning: undefined })
    expect(deltas.some((d) => 'reasoning_details' in d)).toBe(false)
  })

  it('streams as delta.reasoning_details before the content, adding up to the answer’s details', async () => {
    const emu = await testEmulator()
    for (const model of ['anthropic/claude-sonnet-4', 'openai/o4-mini', 'google/gemini-2.5-flash']) {
      const deltas = await streamed(emu, { model })
      const whole = (await chat(emu, { model })).body.choices[0].message
      expect(accumulate(deltas)).toEqual(whole.reasoning_details)
      const lastDetail = deltas.findLastIndex((d) => d.reasoning_details !== undefined)
      expect(lastDetail).toBeLessThan(deltas.findIndex((d) => typeof d.content === 'string' && d.content !== ''))
    }
  })

  it('a tool call answer carries them too (gemini: the encrypted thought signature)', async () => {
    const emu = await testEmulator()
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    const res = await chat(emu, { model: 'google/gemini-2.5-flash', tools, tool_choice: 'required' })
    expect(res.status).toBe(200)
    const message = res.body.choices[0].message
    expect(message.tool_calls).toHaveLength(1)
    expect(message.reasoning_details).toContainEqual({ type: 'reasoning.encrypted', data: expect.any(String), format: 'google-gemini-v1', index: 1 })
  })

  it('sent back on the next turn: every kind of the document accepted as sent, a tampered signature passed on', async () => {
    const emu = await testEmulator()
    const first = (await chat(emu, { model: 'anthropic/claude-sonnet-4' })).body.choices[0].message
    const back = (details: unknown, reasoning: unknown = first.reasoning) => [
      ...USER,
      { role: 'assistant', content: first.content, reasoning, reasoning_details: details },
      { role: 'user', content: 'And in fog?' },
    ]
    expect((await chat(emu, { model: 'anthropic/claude-sonnet-4', messages: back(first.reasoning_details) })).status).toBe(200)
    const every = [
      { type: 'reasoning.text', text: 'a thought', signature: null, format: null },
      { type: 'reasoning.text' },
      { type: 'reasoning.summary', summary: 'in short', id: 'rs_1', format: 'openai-responses-v1', index: 0 },
      { type: 'reasoning.encrypted', data: 'opaque', format: 'google-gemini-v1', index: 1 },
      { type: 'reasoning.server_tool_call', tool_name: 'openrouter:fusion', arguments: '{}', result: '{}', tool_call_id: null },
    ]
    expect((await chat(emu, { model: 'openai/o4-mini', messages: back(every, null) })).status).toBe(200)
    const tampered = [{ ...first.reasoning_details[0], signature: 'not-the-signature' }]
    expect((await chat(emu, { model: 'anthropic/claude-sonnet-4', messages: back(tampered) })).status).toBe(200)
  })

  it('a malformed detail is a 400 naming it', async () => {
    const emu = await testEmulator()
    const cases: Array<[unknown, string]> = [
      ['text', 'messages[1].reasoning_details'],
      [[7], 'messages[1].reasoning_details[0]'],
      [[{ type: 'reasoning.thought' }], 'messages[1].reasoning_details[0].type'],
      [[{ type: 'reasoning.text' }, { type: 'reasoning.encrypted' }], 'messages[1].reasoning_details[1].data'],
      [[{ type: 'reasoning.summary', summary: 3 }], 'messages[1].reasoning_details[0].summary'],
      [[{ type: 'reasoning.text', signature: 5 }], 'messages[1].reasoning_details[0].signature'],
      [[{ type: 'reasoning.text', format: 'openai-v9' }], 'messages[1].reasoning_details[0].format'],
      [[{ type: 'reasoning.text', index: 'first' }], 'messages[1].reasoning_details[0].index'],
      [[{ type: 'reasoning.server_tool_call', tool_name: 'x', arguments: '{}' }], 'messages[1].reasoning_details[0].result'],
    ]
    for (const [details, field] of cases) {
      const messages = [...USER, { role: 'assistant', content: 'Hi', reasoning_details: details }, { role: 'user', content: 'More' }]
      const res = await chat(emu, { model: 'openai/o4-mini', messages })
      expect(res.status, field).toBe(400)
      expect(res.body.error.message, field).toContain(`\`${field}\``)
    }
    const res = await chat(emu, {
      model: 'openai/o4-mini',
      messages: [...USER, { role: 'assistant', content: 'Hi', reasoning: 4 }, { role: 'user', content: 'More' }],
    })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain('`messages[1].reasoning`')
  })
})
