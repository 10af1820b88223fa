// What the request list shows of a completion: its model and the start of its last user message, from
// the request body the journal kept, for chat and text completions, Responses and Messages; nothing
// for a body that was cut, not kept or not JSON, nor for other operations.
import { describe, expect, it } from 'vitest'
import { excerpt, gistOf, hasGist } from '../../../src/renderer/src/features/requests/gist.ts'

const entry = (operation: string, body: unknown) => ({
  operation,
  request: { headers: {}, body: typeof body === 'string' ? body : JSON.stringify(body), body_bytes: 0 },
})

describe('a request gist', () => {
  it('reads the last user message of a chat, text parts joined and whitespace collapsed', () => {
    const body = {
      model: 'openai/gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'An answer' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Where do\n sea otters' },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
            { type: 'text', text: 'sleep?' },
          ],
        },
        { role: 'tool', content: 'ignored', tool_call_id: 'c1' },
      ],
    }
    expect(gistOf(entry('chat.create', body))).toEqual({ model: 'openai/gpt-4o-mini', message: 'Where do sea otters sleep?' })
  })

  it("reads a text completion's prompt, a Responses input (string or items) and a Messages conversation", () => {
    expect(gistOf(entry('completions.create', { model: 'm/a', prompt: 'Once upon a time' }))).toEqual({ model: 'm/a', message: 'Once upon a time' })
    expect(gistOf(entry('responses.create', { model: 'm/b', input: 'Name three kelp species' }))).toEqual({ model: 'm/b', message: 'Name three kelp species' })
    expect(
      gistOf(
        entry('responses.create', {
          model: 'm/b',
          instructions: 'Be kind.',
          input: [
            { role: 'user', content: [{ type: 'input_text', text: 'Hello' }] },
            { type: 'function_call_output', call_id: 'c1', output: '42' },
          ],
        }),
      ),
    ).toEqual({ model: 'm/b', message: 'Hello' })
    expect(
      gistOf(
        entry('messages.create', {
          model: 'anthropic/claude-3.5-haiku',
          system: 'Be brief.',
          max_tokens: 10,
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'Do otters use tools?' }] },
            { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'search', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'yes' }] },
          ],
        }),
      ),
    ).toEqual({ model: 'anthropic/claude-3.5-haiku', message: 'Do otters use tools?' })
  })

  it('names the parts of a message that has no text, and the first model of a fallback list', () => {
    expect(
      gistOf(
        entry('chat.create', {
          models: ['m/x', 'm/y'],
          messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x.test/otter.png' } }] }],
        }),
      ),
    ).toEqual({ model: 'm/x', message: expect.stringMatching(/^\[image: .*otter\.png.*\]$/) })
  })

  it('is nothing for a body cut by the journal, not kept or not JSON, and for other operations', () => {
    expect(gistOf(entry('chat.create', '{"model":"m/a","messages":[{"role":"user","content":"hi"}]… (900 more bytes)'))).toBeNull()
    expect(gistOf(entry('chat.create', '(a stream, not recorded)'))).toBeNull()
    expect(gistOf(entry('chat.create', '{"model": "m/a", "messages": ['))).toBeNull()
    expect(gistOf(entry('chat.create', null))).toBeNull()
    expect(gistOf(entry('chat.create', [1, 2]))).toBeNull()
    expect(gistOf(entry('embeddings.create', { model: 'm/e', input: 'hello' }))).toBeNull()
    expect(['chat.create', 'completions.create', 'responses.create', 'messages.create', 'embeddings.create'].map(hasGist)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ])
  })

  it('cuts a long message after a whole word, with an ellipsis', () => {
    const text = 'Could you explain, in plain words and with an example or two, why sea otters wrap themselves in kelp?'
    const cut = excerpt(text)
    expect(cut.length).toBeLessThanOrEqual(56)
    expect(cut).toBe('Could you explain, in plain words and with an example…')
    expect(excerpt('short')).toBe('short')
    expect(excerpt('x'.repeat(80))).toBe(`${'x'.repeat(55)}…`)
  })
})
