// The `openrouter:image_generation` server tool on chat: the gateway draws one picture of the question with
// the tool's image model (openai/gpt-5-image when it names none) and the message carries it in `images`,
// where chat shows pictures, created and streamed alike; billed at the image model's per-image price, counted
// in server_tool_use_details. tool_choice "none" draws nothing; a model that makes no images is a 400.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { decodeDataUrl } from '../../helpers/decode-image.ts'
import { listeningEmulator, testEmulator } from '../../helpers/emulator.ts'

const MODEL = 'openai/gpt-4o-mini'
const QUESTION: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Draw a lighthouse at dusk' }]
const imageTool = (parameters?: Record<string, unknown>) =>
  ({ type: 'openrouter:image_generation', ...(parameters ? { parameters } : {}) }) as unknown as OpenAI.ChatCompletionTool

type Message = OpenAI.ChatCompletionMessage & { images?: Array<{ type: 'image_url'; image_url: { url: string }; index: number }> }
type Usage = OpenAI.CompletionUsage & { cost: number; server_tool_use_details?: Record<string, number> }

describe('chat with the openrouter:image_generation server tool', () => {
  it('answers its text with one PNG in message.images, billed at the image price, the same streamed', async () => {
    const emu = await listeningEmulator()
    const openai = new OpenAI({ baseURL: `${emu.url}/api/v1`, apiKey: emu.keys.standard, maxRetries: 0 })
    const drawn = await openai.chat.completions.create({ model: MODEL, messages: QUESTION, seed: 4, tools: [imageTool({ model: 'openai/gpt-image-1' })] })
    const message = drawn.choices[0]!.message as Message
    expect(message.content).toMatch(/lighthouse/i)
    expect(message.images).toHaveLength(1)
    expect(message.images![0]).toMatchObject({ type: 'image_url', index: 0 })
    expect(decodeDataUrl(message.images![0]!.image_url.url)).toMatchObject({ mediaType: 'image/png' })
    expect((drawn.usage as Usage).server_tool_use_details).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1 })

    const plain = await openai.chat.completions.create({ model: MODEL, messages: QUESTION, seed: 4 })
    expect((plain.choices[0]!.message as Message).images).toBeUndefined()
    const price = Number(emu.ctx.services.catalog.get().find('openai/gpt-image-1')!.endpoints[0]!.pricing.image)
    expect(plain.usage!.completion_tokens).toBe(drawn.usage!.completion_tokens)
    expect((drawn.usage as Usage).cost - (plain.usage as Usage).cost).toBeCloseTo(price, 9)

    const stream = await openai.chat.completions.create({
      model: MODEL,
      messages: QUESTION,
      seed: 4,
      tools: [imageTool({ model: 'openai/gpt-image-1' })],
      stream: true,
    })
    const images: string[] = []
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { images?: Array<{ image_url: { url: string } }> } | undefined
      for (const image of delta?.images ?? []) images.push(image.image_url.url)
    }
    expect(images).toEqual([message.images![0]!.image_url.url])
  })

  it('tool_choice "none" draws nothing; a model that makes no images is a 400 naming the field, nothing billed', async () => {
    const emu = await testEmulator()
    const send = (body: Record<string, unknown>) =>
      emu.send('POST', '/api/v1/chat/completions', { model: MODEL, messages: QUESTION, ...body }, emu.keys.standard)
    const none = await send({ tools: [imageTool()], tool_choice: 'none' })
    expect(none.status).toBe(200)
    expect(none.body.choices[0].message.images).toBeUndefined()
    const before = (emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage').get() as { n: number }).n
    const bad = await send({ tools: [imageTool({ model: 'openai/gpt-4o' })] })
    expect(bad.status).toBe(400)
    expect(bad.body.error.metadata).toMatchObject({ field: 'tools[0].parameters.model' })
    expect((emu.ctx.db.prepare('SELECT COUNT(*) AS n FROM usage').get() as { n: number }).n).toBe(before)
  })
})
