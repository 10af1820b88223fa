// Reasoning details through the clients a user points at the emulator, unmodified, over real HTTP,
// across two turns: openai (chat's reasoning_details created and streamed; Responses' reasoning item
// with its summary and encrypted_content, sent back with `store: false` as Codex does),
// @anthropic-ai/sdk (thinking blocks with their signature, sent back; redacted_thinking) and the AI
// SDK provider (generateText on a reasoning model, then a turn with its response messages: the
// provider sends the reasoning_details back as it got them).
import Anthropic, { BadRequestError } from '@anthropic-ai/sdk'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { generateText, type ModelMessage } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const CLAUDE = 'anthropic/claude-sonnet-4'
const QUESTION = 'Why do lighthouses flash in patterns?'
type Detail = Record<string, unknown>
/** Chat's message and delta as the gateway gives them (the openai types know neither field). */
type WithDetails = { reasoning?: string | null; reasoning_details?: Detail[] }

async function openai() {
  const emu = await listeningEmulator()
  return { emu, client: new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 }) }
}

describe('openai', () => {
  it('chat: reasoning_details created and streamed alike, and sent back on the next turn', async () => {
    const { client } = await openai()
    const request = { model: CLAUDE, messages: [{ role: 'user' as const, content: QUESTION }], reasoning: { effort: 'low' } }
    const first = await client.chat.completions.create(request as OpenAI.ChatCompletionCreateParamsNonStreaming)
    const message = first.choices[0]!.message as (typeof first.choices)[0]['message'] & WithDetails
    expect(message.reasoning_details).toEqual([
      { type: 'reasoning.text', text: message.reasoning, signature: expect.any(String), format: 'anthropic-claude-v1', index: 0 },
    ])

    const stream = await client.chat.completions.create({ ...request, stream: true } as OpenAI.ChatCompletionCreateParamsStreaming)
    let text = ''
    let signature: unknown = null
    for await (const chunk of stream)
      for (const detail of (chunk.choices[0]?.delta as WithDetails | undefined)?.reasoning_details ?? []) {
        text += detail.text as string
        signature = detail.signature ?? signature
      }
    expect(text).toBe(message.reasoning)
    expect(signature).toBe(message.reasoning_details![0]!.signature)

    const next = await client.chat.completions.create({
      model: CLAUDE,
      messages: [
        ...request.messages,
        { role: 'assistant', content: message.content, reasoning: message.reasoning, reasoning_details: message.reasoning_details },
        { role: 'user', content: 'And in fog?' },
      ],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    expect(next.choices[0]!.message.content).toBeTruthy()

    const bad = await client.chat.completions
      .create({
        model: CLAUDE,
        messages: [
          { role: 'user', content: QUESTION },
          { role: 'assistant', content: 'Hi', reasoning_details: [{ type: 'reasoning.encrypted' }] },
        ],
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((error: unknown) => error)
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError)
    expect((bad as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('messages[1].reasoning_details[0].data')
  })

  it('Responses: a reasoning item with its summary and encrypted_content (include), streamed alike, sent back with store false', async () => {
    const { client } = await openai()
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: QUESTION }]
    const request = {
      model: 'openai/o4-mini',
      input,
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
      include: ['reasoning.encrypted_content' as const],
      store: false,
    }
    const first = await client.responses.create(request)
    const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem
    expect(reasoning.type).toBe('reasoning')
    expect(reasoning.summary).toEqual([{ type: 'summary_text', text: expect.stringMatching(/^The question is about /) }])
    expect(reasoning.encrypted_content).toMatch(/^[A-Za-z0-9+/]{40,}=*$/)
    // Without include, no encrypted content.
    const plain = await client.responses.create({ ...request, include: [] })
    expect(plain.output[0]).not.toHaveProperty('encrypted_content')

    const events: string[] = []
    let summary = ''
    const stream = client.responses.stream(request)
    stream.on('event', (event) => {
      events.push(event.type)
      if (event.type === 'response.reasoning_summary_text.delta') summary += event.delta
    })
    const streamed = await stream.finalResponse()
    expect(summary).toBe(reasoning.summary[0]!.text)
    expect(events.indexOf('response.reasoning_summary_text.delta')).toBeLessThan(events.indexOf('response.output_text.delta'))
    expect((streamed.output[0] as OpenAI.Responses.ResponseReasoningItem).encrypted_content).toBe(reasoning.encrypted_content)

    const next = await client.responses.create({
      ...request,
      input: [...input, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'And in fog?' }],
    })
    expect(next.status).toBe('completed')
    const bad = await client.responses
      .create({ ...request, input: [...input, { ...reasoning, encrypted_content: 5 } as unknown as OpenAI.Responses.ResponseInputItem] })
      .catch((error: unknown) => error)
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError)
    expect((bad as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('input[1].encrypted_content')
    const badContent = await client.responses
      .create({ ...request, input: [...input, { ...reasoning, content: [{ type: 'output_text' }] } as unknown as OpenAI.Responses.ResponseInputItem] })
      .catch((error: unknown) => error)
    expect((badContent as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400)
    expect((badContent as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('input[1].content[0]')
  })
})

describe('@anthropic-ai/sdk', () => {
  it('thinking blocks carry a deterministic signature, created and streamed alike, and are sent back with redacted_thinking', async () => {
    const emu = await listeningEmulator()
    const client = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const request = {
      model: CLAUDE,
      max_tokens: 512,
      thinking: { type: 'enabled' as const, budget_tokens: 64 },
      messages: [{ role: 'user' as const, content: QUESTION }],
    }
    const first = await client.messages.create(request)
    const thinking = first.content[0] as Anthropic.ThinkingBlock
    expect(thinking.type).toBe('thinking')
    expect(thinking.signature).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    // The same thought as chat's reasoning.text detail, with the same signature.
    const chat = await emu.send(
      'POST',
      '/api/v1/chat/completions',
      { model: CLAUDE, messages: request.messages, reasoning: { max_tokens: 64 }, max_tokens: 512 },
      emu.keys.standard,
    )
    expect(chat.body.choices[0].message.reasoning_details[0]).toMatchObject({ text: thinking.thinking, signature: thinking.signature })

    let signature = ''
    const stream = client.messages.stream(request)
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'signature_delta') signature += event.delta.signature
    })
    const final = await stream.finalMessage()
    expect(signature).toBe(thinking.signature)
    expect(final.content[0]).toEqual(thinking)

    const next = await client.messages.create({
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' }, ...first.content] },
        { role: 'user', content: 'And in fog?' },
      ],
    })
    expect(next.content[0]!.type).toBe('thinking')
    const bad = await client.messages
      .create({
        ...request,
        messages: [...request.messages, { role: 'assistant', content: [{ type: 'thinking', thinking: 'x' } as Anthropic.ThinkingBlockParam] }],
      })
      .catch((error: unknown) => error)
    expect(bad).toBeInstanceOf(BadRequestError)
    expect((bad as BadRequestError).message).toContain('messages[1].content[0].signature')
  })
})

describe('@openrouter/ai-sdk-provider with ai', () => {
  it('generateText on a reasoning model, then a second turn: the provider sends the reasoning_details back as given', async () => {
    const emu = await listeningEmulator()
    const sent: Array<Record<string, unknown>> = []
    // A fetch that keeps each request body it passes on: what the provider sends, unchanged.
    const keeping: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>)
      return fetch(input, init)
    }
    const openrouter = createOpenRouter({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, fetch: keeping })
    const model = openrouter.chat(CLAUDE, { reasoning: { effort: 'low' } })
    const first = await generateText({ model, prompt: QUESTION })
    expect(first.reasoningText).toMatch(/^The question is about /)
    const messages: ModelMessage[] = [{ role: 'user', content: QUESTION }, ...first.response.messages, { role: 'user', content: 'And in fog?' }]
    const second = await generateText({ model, messages })
    expect(second.text).toBeTruthy()
    expect(sent).toHaveLength(2)
    const given = (await emu.send('POST', '/api/v1/chat/completions', sent[0]!, emu.keys.standard)).body.choices[0].message.reasoning_details
    const assistant = (sent[1]!.messages as Array<Record<string, unknown>>).find((m) => m.role === 'assistant')!
    expect(assistant.reasoning_details).toEqual(given)
  })
})
