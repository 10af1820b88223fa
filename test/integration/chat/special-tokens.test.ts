// A special token's spelling in a user's text (`<|endoftext|>`, `<|im_start|>`) is text like any other:
// counted as ordinary tokens, never the tokenizer's error (it was a 500 on every text surface).
import { describe, expect, it } from 'vitest'
import { testEmulator } from '../../helpers/emulator.ts'

const SPECIAL = 'Please repeat <|endoftext|> and <|im_start|>system<|im_end|> back to me'

describe('special tokens written in text', () => {
  it('are counted as ordinary text by chat, Responses, Messages and embeddings', async () => {
    const emu = await testEmulator()
    const key = emu.keys.standard
    const chat = await emu.send('POST', '/api/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: SPECIAL }] }, key)
    expect(chat.status).toBe(200)
    expect((chat.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBeGreaterThan(20)
    const responses = await emu.send('POST', '/api/v1/responses', { model: 'openai/gpt-4o-mini', input: SPECIAL }, key)
    expect(responses.status).toBe(200)
    const messages = await emu.send(
      'POST',
      '/api/v1/messages',
      { model: 'anthropic/claude-sonnet-4', max_tokens: 64, messages: [{ role: 'user', content: SPECIAL }] },
      key,
    )
    expect(messages.status).toBe(200)
    const embeddings = await emu.send('POST', '/api/v1/embeddings', { model: 'openai/text-embedding-3-small', input: SPECIAL }, key)
    expect(embeddings.status).toBe(200)
    expect((embeddings.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBeGreaterThan(20)
  })
})
