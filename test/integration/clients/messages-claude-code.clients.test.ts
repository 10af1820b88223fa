// Claude Code's requests through @anthropic-ai/sdk, over real HTTP: its system prompt, its tools, the
// `<system-reminder>` blocks it puts in the user's turn, its beta flags, `budget_tokens: 31999` and
// `thinking.display` "updates" (stream-json) or "omitted" (json). Each is a 200 whose thinking is
// short for a one-word question, and whose topic is the user's words, never the reminders'. Chat and
// Responses (through openai) read the same question: the last user turn's own words.
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'anthropic/claude-sonnet-4'
const BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14,thinking-token-count-2026-05-13,thinking-display-updates-2026-08-18'

/** Words only the system prompt and the reminders use: an answer naming them took its topic from there. */
const CONTEXT_WORDS = /kubernetes|spreadsheet|formulas|todo|reminder|repository|claude/i

const SYSTEM = [
  { type: 'text' as const, text: "You are Claude Code, Anthropic's official CLI for Claude." },
  {
    type: 'text' as const,
    text: 'You help with kubernetes deployments and spreadsheet formulas in this repository.',
    cache_control: { type: 'ephemeral' as const },
  },
]

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object' as const, properties, required })
const TOOLS = [
  { name: 'Bash', description: 'Runs a shell command', input_schema: object({ command: { type: 'string' } }, ['command']) },
  { name: 'Read', description: 'Reads a file', input_schema: object({ file_path: { type: 'string' } }, ['file_path']) },
  { name: 'TodoWrite', description: 'Writes the todo list', input_schema: object({ todos: { type: 'array', items: { type: 'string' } } }, ['todos']) },
]

/** The user's turn as Claude Code sends it: reminder blocks first, then what the user typed. */
const turn = (typed: string) => ({
  role: 'user' as const,
  content: [
    {
      type: 'text' as const,
      text: "<system-reminder>\nAs you answer the user's questions, you can use this context: the kubernetes cluster, the spreadsheet formulas of the repository.\n</system-reminder>",
    },
    { type: 'text' as const, text: '<system-reminder>\nThis is a reminder that your todo list is currently empty. Read it again.\n</system-reminder>' },
    { type: 'text' as const, text: typed, cache_control: { type: 'ephemeral' as const } },
  ],
})

const bodyOf = (typed: string, display: 'updates' | 'omitted') => ({
  model: MODEL,
  max_tokens: 32_000,
  system: SYSTEM,
  tools: TOOLS,
  metadata: { user_id: 'user_0123' },
  // `updates` is not in the SDK's types yet: Claude Code sends it all the same.
  thinking: { type: 'enabled', budget_tokens: 31_999, display } as unknown as Anthropic.ThinkingConfigParam,
  messages: [turn(typed)],
})

// A timeout of its own: without one the SDK refuses a non-streamed max_tokens of 32,000 before sending it.
const clientFor = (url: string, key: string): Anthropic =>
  new Anthropic({ baseURL: `${url}/api`, authToken: key, apiKey: null, maxRetries: 0, timeout: 60_000, defaultHeaders: { 'anthropic-beta': BETAS } })

const textOf = (message: Anthropic.Message): string => message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')
const thinkingOf = (message: Anthropic.Message): Anthropic.ThinkingBlock => {
  const block = message.content[0]
  if (block?.type !== 'thinking') throw new Error(`no thinking block first: ${JSON.stringify(message.content)}`)
  return block
}
const thinkingTokens = (message: Anthropic.Message): number =>
  (message.usage as unknown as { output_tokens_details: { thinking_tokens: number } }).output_tokens_details.thinking_tokens

describe('Claude Code through @anthropic-ai/sdk', () => {
  it('display "updates" with its betas: a 200, a short thought for a one-word question, created and streamed alike', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const body = bodyOf('Reply with one word: hello', 'updates')
    const message = await client.messages.create(body)
    expect(message.stop_reason).toBe('end_turn')
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text'])
    const thought = thinkingOf(message)
    expect(thought.thinking).not.toBe('')
    expect(thought.signature).not.toBe('')
    // 16 tokens and two for each of the question's: tens, not the ~14,500 of half the budget.
    expect(thinkingTokens(message)).toBeGreaterThan(0)
    expect(thinkingTokens(message)).toBeLessThanOrEqual(40)
    expect(message.usage.output_tokens).toBeLessThan(200)
    // The topic is the user's words; nothing of the system prompt or the reminders, and no TodoWrite call.
    expect(thought.thinking).toMatch(/^The question is about reply and word\./)
    expect(`${thought.thinking} ${textOf(message)}`).not.toMatch(CONTEXT_WORDS)

    const stream = client.messages.stream(body)
    let thinking = ''
    stream.on('thinking', (delta) => {
      thinking += delta
    })
    const final = await stream.finalMessage()
    expect(thinking).toBe(thought.thinking)
    expect(final.content).toEqual(message.content)
    expect(thinkingTokens(final)).toBe(thinkingTokens(message))
  })

  it('display "omitted": thinking blocks with empty text and their signature, billed as shown ones, created and streamed', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const shown = await client.messages.create(bodyOf('Reply with one word: lighthouses', 'updates'))
    const message = await client.messages.create(bodyOf('Reply with one word: lighthouses', 'omitted'))
    const thought = thinkingOf(message)
    expect(thought.thinking).toBe('')
    expect(thought.signature).toBe(thinkingOf(shown).signature)
    expect(thinkingTokens(message)).toBe(thinkingTokens(shown))
    expect(textOf(message)).toBe(textOf(shown))
    expect(textOf(message)).toMatch(/lighthouses/)
    expect(textOf(message)).not.toMatch(CONTEXT_WORDS)

    const raw = await client.messages.create({ ...bodyOf('Reply with one word: lighthouses', 'omitted'), stream: true })
    let thinking = ''
    let signature = ''
    for await (const event of raw)
      if (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta') thinking += event.delta.thinking
      else if (event.type === 'content_block_delta' && event.delta.type === 'signature_delta') signature = event.delta.signature
    expect(thinking).toBe('')
    expect(signature).toBe(thought.signature)
  })

  it('thinks longer for a longer question, capped by the budget and by the answer-length setting', async () => {
    const emu = await listeningEmulator()
    const client = clientFor(emu.url, emu.keys.standard)
    const long = `Compare these lighthouses and their lenses: ${Array.from({ length: 30 }, (_, i) => `the lighthouse number ${i} on the coast`).join(', ')}.`
    const tokens = async (typed: string, budget = 31_999) =>
      thinkingTokens(await client.messages.create({ ...bodyOf(typed, 'updates'), thinking: { type: 'enabled', budget_tokens: budget } }))
    const short = await tokens('Reply with one word: hello')
    const medium = await tokens('Why do lighthouses rotate their lenses, and how was it done before electricity?')
    const longest = await tokens(long)
    expect(short).toBeLessThan(medium)
    expect(medium).toBeLessThan(longest)
    // At most four times the answer-length setting (60 tokens by default), and at most the budget
    // (the thought is cut there, at a token's edge).
    expect(longest).toBeGreaterThan(200)
    expect(longest).toBeLessThanOrEqual(240)
    const budgeted = await tokens(long, 100)
    expect(budgeted).toBeGreaterThan(80)
    expect(budgeted).toBeLessThanOrEqual(100)
    expect(await tokens('Reply with one word: hello')).toBe(short)

    const settings = await fetch(`${emu.url}/_emulator/api/chat/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answer_tokens: 10 }),
    })
    expect(settings.status).toBe(200)
    const set = await tokens(long)
    expect(set).toBeGreaterThan(30)
    expect(set).toBeLessThanOrEqual(40)
  })
})

describe('the question on every surface (openai)', () => {
  const REMINDER = '<system-reminder>Your todo list is empty; the kubernetes spreadsheet is in the repository.</system-reminder>'
  const TOOL_RESULT = 'kubernetes spreadsheet formulas from the repository'

  it('chat and Responses take the topic from the last user turn, never the system prompt, reminders or tool results; reasoning is short', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const chat = await client.chat.completions.create({
      model: 'openai/o4-mini',
      reasoning_effort: 'high',
      messages: [
        { role: 'system', content: 'You help with kubernetes deployments and spreadsheet formulas.' },
        { role: 'user', content: 'Read the repository' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Read', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: TOOL_RESULT },
        { role: 'user', content: `${REMINDER}\nTell me about lighthouses` },
      ],
    })
    const message = chat.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning: string }
    expect(message.content).toMatch(/lighthouses/)
    expect(`${message.reasoning} ${message.content}`).not.toMatch(CONTEXT_WORDS)
    expect(message.reasoning).toMatch(/^The question is about lighthouses\./)
    // 16 + 2 for each of the question's few tokens, under the effort's 128.
    expect(chat.usage!.completion_tokens_details!.reasoning_tokens).toBeLessThanOrEqual(40)

    const response = await client.responses.create({
      model: 'openai/o4-mini',
      reasoning: { effort: 'high' },
      instructions: 'You help with kubernetes deployments and spreadsheet formulas.',
      input: [
        { role: 'user', content: 'Tell me about lighthouses' },
        { type: 'function_call', call_id: 'call_1', name: 'Read', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: TOOL_RESULT },
        // A turn of reminders only is the agent's note, not the user's question.
        { role: 'user', content: REMINDER },
      ],
    })
    expect(response.output_text).toMatch(/lighthouses/)
    expect(response.output_text).not.toMatch(CONTEXT_WORDS)
    expect(response.usage!.output_tokens_details.reasoning_tokens).toBeLessThanOrEqual(40)
  })
})
