// Two gateway features through every client that can ask for them: the `openrouter:datetime` server
// tool (the answer states the virtual clock's time in the tool's zone) and images from an image-output
// model asked without `modalities` (the live service answers with `message.images`). Through openai,
// @openrouter/sdk, the AI SDK's OpenRouter provider and LangChain, over real HTTP.
import { ChatOpenAI } from '@langchain/openai'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { OpenRouter } from '@openrouter/sdk'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { decodeDataUrl } from '../../helpers/decode-image.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const IMAGE_MODEL = 'google/gemini-2.5-flash-image'
/** The test emulator's clock (helpers/emulator.ts: 2026-03-04T10:00:00Z), said in Tokyo. */
const TOKYO = /^The current date and time is Wednesday, March 4, 2026 at 7:00:00\sPM GMT\+9 \(Asia\/Tokyo\)\. /
const DATETIME = { type: 'openrouter:datetime', parameters: { timezone: 'Asia/Tokyo' } }

async function setup() {
  const emu = await listeningEmulator()
  return { emu, baseURL: `${emu.url}/api/v1`, key: emu.keys.standard }
}

describe('the datetime server tool, through every client', () => {
  it('openai chat: the time stated first, the call counted in server_tool_use_details', async () => {
    const { baseURL, key } = await setup()
    const openai = new OpenAI({ baseURL, apiKey: key, maxRetries: 0 })
    const chat = await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'What time is it?' }],
      tools: [DATETIME as unknown as OpenAI.ChatCompletionTool],
    })
    expect(chat.choices[0]!.message.content).toMatch(TOKYO)
    expect(chat.usage).toMatchObject({ server_tool_use_details: { tool_calls_requested: 1, tool_calls_executed: 1 } })
  })

  it('@openrouter/sdk chat: the tool typed by the SDK, serverToolUseDetails parsed', async () => {
    const { baseURL, key } = await setup()
    const client = new OpenRouter({ apiKey: key, serverURL: baseURL, retryConfig: { strategy: 'none' } })
    const chat = await client.chat.send({
      chatRequest: { model: MODEL, messages: [{ role: 'user', content: 'What time is it?' }], tools: [DATETIME as never], stream: false },
    })
    if (!('choices' in chat)) throw new Error('expected a whole answer, not a stream')
    expect(chat.choices[0]!.message.content).toMatch(TOKYO)
    expect(chat.usage).toMatchObject({ serverToolUseDetails: { toolCallsExecuted: 1, toolCallsRequested: 1 } })
  })

  it('AI SDK (@openrouter/ai-sdk-provider): the tool sent in the extra body, the time in the text', async () => {
    const { baseURL, key } = await setup()
    const openrouter = createOpenRouter({ baseURL, apiKey: key })
    const result = await generateText({ model: openrouter.chat(MODEL, { extraBody: { tools: [DATETIME] } }), prompt: 'What time is it?' })
    expect(result.text).toMatch(TOKYO)
  })
})

describe('images from an image-output model without modalities, through every client', () => {
  it('openai chat: message.images with a PNG, and the text', async () => {
    const { baseURL, key } = await setup()
    const openai = new OpenAI({ baseURL, apiKey: key, maxRetries: 0 })
    const chat = await openai.chat.completions.create({ model: IMAGE_MODEL, messages: [{ role: 'user', content: 'A lighthouse at dusk' }] })
    const message = chat.choices[0]!.message as OpenAI.ChatCompletionMessage & { images: Array<{ image_url: { url: string } }> }
    expect(message.images).toHaveLength(1)
    expect(decodeDataUrl(message.images[0]!.image_url.url)).toMatchObject({ mediaType: 'image/png' })
    expect(message.content).toMatch(/lighthouse/i)
  })

  it('@openrouter/sdk chat: images typed by the SDK', async () => {
    const { baseURL, key } = await setup()
    const client = new OpenRouter({ apiKey: key, serverURL: baseURL, retryConfig: { strategy: 'none' } })
    const chat = await client.chat.send({ chatRequest: { model: IMAGE_MODEL, messages: [{ role: 'user', content: 'A lighthouse at dusk' }], stream: false } })
    if (!('choices' in chat)) throw new Error('expected a whole answer, not a stream')
    const images = chat.choices[0]!.message.images ?? []
    expect(images).toHaveLength(1)
    expect(decodeDataUrl(images[0]!.imageUrl.url)).toMatchObject({ mediaType: 'image/png' })
  })

  it('AI SDK (@openrouter/ai-sdk-provider): the image as a generated file, created and streamed', async () => {
    const { baseURL, key } = await setup()
    const openrouter = createOpenRouter({ baseURL, apiKey: key })
    const result = await generateText({ model: openrouter.chat(IMAGE_MODEL), prompt: 'A lighthouse at dusk' })
    expect(result.files).toHaveLength(1)
    expect(result.files[0]!.mediaType).toBe('image/png')
    expect(result.text).toMatch(/lighthouse/i)
  })

  it('LangChain ChatOpenAI: the image in the raw response it keeps, the text as content', async () => {
    const { baseURL, key } = await setup()
    const model = new ChatOpenAI({ model: IMAGE_MODEL, apiKey: key, configuration: { baseURL }, maxRetries: 0, __includeRawResponse: true })
    const message = await model.invoke('A lighthouse at dusk')
    const raw = message.additional_kwargs.__raw_response as { choices: Array<{ message: { images: Array<{ image_url: { url: string } }> } }> }
    expect(decodeDataUrl(raw.choices[0]!.message.images[0]!.image_url.url)).toMatchObject({ mediaType: 'image/png' })
    expect(message.text).toMatch(/lighthouse/i)
  })
})
