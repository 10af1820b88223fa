// Chat completions that ask for images (`modalities` with `image`): a model that makes images answers
// with `message.images` (PNG data URLs), streamed as a delta; each image billed at the per-image price.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { decodeDataUrl } from '../../helpers/decode-image.ts'
import { listeningEmulator, testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const GEMINI = 'google/gemini-2.5-flash-image'
const PROMPT = 'a red panda astronaut floating in space'

type Body = Record<string, unknown>
const chat = (emu: TestEmulator, body: Body) =>
  emu.send(
    'POST',
    '/api/v1/chat/completions',
    { model: GEMINI, messages: [{ role: 'user', content: PROMPT }], modalities: ['image', 'text'], ...body },
    emu.keys.standard,
  )

async function chunksOf(emu: TestEmulator, body: Body): Promise<Array<Record<string, any>>> {
  const res = await emu.request({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
    payload: { model: GEMINI, messages: [{ role: 'user', content: PROMPT }], modalities: ['image', 'text'], stream: true, ...body },
  })
  expect(res.status).toBe(200)
  return String(res.body)
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice(6)) as Record<string, any>)
}

describe('chat completions with image output', () => {
  it('an image-only model answers with an image and no text, billed per image', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { model: 'openai/gpt-image-1', modalities: ['image'] })
    expect(res.status).toBe(200)
    const message = res.body.choices[0].message
    expect(message.content).toBeNull()
    expect(message.images).toHaveLength(1)
    expect(message.images[0]).toMatchObject({ type: 'image_url', index: 0 })
    expect(decodeDataUrl(message.images[0].image_url.url)).toMatchObject({ mediaType: 'image/png', width: 1024, height: 1024 })
    const { prompt_tokens: prompt, completion_tokens: completion, cost } = res.body.usage
    expect(completion).toBe(0)
    // gpt-image-1: $0.042 an image and $0.000005 a prompt token.
    expect(cost).toBeCloseTo(0.042 + prompt * 0.000005, 9)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(cost, 9)
  })

  it('a stream broken part way still bills the images it drew, with the tokens sent', async () => {
    const emu = await testEmulator()
    const rule = await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'chat.create' }, action: { status: 502, stream: { after_chunks: 1 } } })
    expect(rule.status).toBe(201)
    const res = await emu.app.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
      payload: { model: 'openai/gpt-image-1', messages: [{ role: 'user', content: PROMPT }], modalities: ['image'], stream: true },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('"finish_reason":"error"')
    const generation = (await emu.get(`/api/v1/generation?id=${String(res.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation.finish_reason).toBe('error')
    // gpt-image-1: $0.042 an image, and the prompt's tokens.
    expect(generation.total_cost).toBeCloseTo(0.042 + generation.tokens_prompt * 0.000005, 9)
  })

  it('draws the same picture /api/v1/images makes for the same model and prompt', async () => {
    const emu = await testEmulator()
    const viaChat = (await chat(emu, { model: 'openai/gpt-image-1', modalities: ['image'] })).body.choices[0].message.images[0].image_url.url
    const direct = await emu.send('POST', '/api/v1/images', { model: 'openai/gpt-image-1', prompt: PROMPT }, emu.keys.standard)
    expect(viaChat).toBe(`data:image/png;base64,${direct.body.data[0].b64_json}`)
  })

  it('draws the last user turn’s own words: <system-reminder> blocks are not part of the prompt', async () => {
    const emu = await testEmulator()
    const reminded = `<system-reminder>The user prefers watercolours.</system-reminder>\n${PROMPT}`
    const res = await chat(emu, { model: 'openai/gpt-image-1', modalities: ['image'], messages: [{ role: 'user', content: reminded }] })
    const direct = await emu.send('POST', '/api/v1/images', { model: 'openai/gpt-image-1', prompt: PROMPT }, emu.keys.standard)
    expect(res.body.choices[0].message.images[0].image_url.url).toBe(`data:image/png;base64,${direct.body.data[0].b64_json}`)
  })

  it('a model that writes and draws gives both, in the aspect ratio and size asked', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { image_config: { aspect_ratio: '16:9' } })
    const message = res.body.choices[0].message
    expect(typeof message.content).toBe('string')
    expect(message.content.length).toBeGreaterThan(0)
    expect(decodeDataUrl(message.images[0].image_url.url)).toMatchObject({ width: 1360, height: 768 })
    // Gemini: tokens at its prices plus $0.039 an image.
    const { prompt_tokens: prompt, completion_tokens: completion, cost } = res.body.usage
    expect(cost).toBeCloseTo(prompt * 0.0000003 + completion * 0.0000025 + 0.039, 9)
  })

  it('gives each choice its own image, and bills each', async () => {
    const emu = await testEmulator()
    const res = await chat(emu, { n: 2, modalities: ['image'] })
    const urls = res.body.choices.map((c: { message: { images: Array<{ image_url: { url: string } }> } }) => c.message.images[0]!.image_url.url)
    expect(urls).toHaveLength(2)
    expect(urls[0]).not.toBe(urls[1])
    expect(res.body.usage.cost).toBeCloseTo(res.body.usage.prompt_tokens * 0.0000003 + 2 * 0.039, 9)
  })

  it('streams the image as a delta of its own, the same as the answer in one piece', async () => {
    const emu = await testEmulator()
    const whole = (await chat(emu, { seed: 5 })).body.choices[0].message
    const chunks = await chunksOf(emu, { seed: 5 })
    const imageDeltas = chunks.filter((c) => c.choices[0]?.delta?.images)
    expect(imageDeltas).toHaveLength(1)
    expect(imageDeltas[0]!.choices[0].delta.images).toEqual(whole.images)
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(whole.content)
  })

  it('stays text for a model that makes no images, and refuses an image model asked for text alone', async () => {
    const emu = await testEmulator()
    const text = await chat(emu, { model: 'openai/gpt-4o-mini' })
    expect(text.status).toBe(200)
    expect(text.body.choices[0].message.images).toBeUndefined()
    const textOnly = await chat(emu, { model: 'openai/gpt-image-1', modalities: ['text'] })
    expect(textOnly.status).toBe(400)
    expect(textOnly.body.error.message).toBe('openai/gpt-image-1 does not answer in text (it outputs image)')
  })

  it.each([
    [
      'an aspect ratio outside the enum',
      { image_config: { aspect_ratio: '7:3' } },
      'Field `image_config.aspect_ratio` must be one of 1:1, 1:2, 1:4, 1:8, 2:1, 2:3, 3:2, 3:4, 4:1, 4:3, 4:5, 5:4, 8:1, 9:16, 16:9, 9:19.5, 19.5:9, 9:20, 20:9, 9:21, 21:9, auto',
      'image_config.aspect_ratio',
    ],
    [
      'an image size outside the tiers',
      { image_config: { image_size: '8K' } },
      'Field `image_config.image_size` must be one of 512, 1K, 2K, 4K',
      'image_config.image_size',
    ],
    [
      'more pixels than one request makes',
      { model: 'bytedance-seed/seedream-4.5', modalities: ['image'], n: 2, image_config: { image_size: '4K' } },
      'Field `n` asks for 2 images of 4096x4096, 33554432 pixels in all, more than the 16777216 one request may make: ask for fewer or smaller images',
      'n',
    ],
    ['a modality outside the enum', { modalities: ['video'] }, 'Field `modalities[0]` must be one of text, image, audio', 'modalities[0]'],
  ])('refuses %s, billing nothing', async (_name, body, message, field) => {
    const emu = await testEmulator()
    const res = await chat(emu, body)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message, metadata: { field, location: 'body' } })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })
})

describe('chat completions with image output, asked without modalities (as the live service answers)', () => {
  type ImageMessage = OpenAI.ChatCompletionMessage & { images?: Array<{ type: string; index: number; image_url: { url: string } }> }

  it('an image-output model answers with message.images and its text, billed as when modalities asks for both', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }]
    const implicit = await client.chat.completions.create({ model: GEMINI, messages, seed: 3 })
    const message = implicit.choices[0]!.message as ImageMessage
    expect(message.content?.length).toBeGreaterThan(0)
    expect(message.images).toHaveLength(1)
    expect(decodeDataUrl(message.images![0]!.image_url.url)).toMatchObject({ mediaType: 'image/png' })
    const usage = implicit.usage as OpenAI.CompletionUsage & { cost: number }
    // Gemini: tokens at its prices plus $0.039 an image.
    expect(usage.cost).toBeCloseTo(usage.prompt_tokens * 0.0000003 + usage.completion_tokens * 0.0000025 + 0.039, 9)
    const explicit = await client.chat.completions.create({
      model: GEMINI,
      messages,
      seed: 3,
      modalities: ['image', 'text'],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    expect(explicit.choices[0]!.message.content).toBe(message.content)
    expect((explicit.choices[0]!.message as ImageMessage).images).toEqual(message.images)
    expect((explicit.usage as typeof usage).cost).toBe(usage.cost)
  })

  it('an image-only model answers with images alone; modalities ["text"] keeps an image-and-text model to text', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }]
    const drawn = (await client.chat.completions.create({ model: 'openai/gpt-image-1', messages })).choices[0]!.message as ImageMessage
    expect(drawn.content).toBeNull()
    expect(drawn.images).toHaveLength(1)
    const text = await client.chat.completions.create({ model: 'openai/gpt-5-image-mini', messages, modalities: ['text'] })
    expect((text.choices[0]!.message as ImageMessage).images).toBeUndefined()
    expect(text.choices[0]!.message.content?.length).toBeGreaterThan(0)
  })

  it('a text completion of an image-output model stays text', async () => {
    const emu = await testEmulator()
    const res = await emu.send('POST', '/api/v1/completions', { model: GEMINI, prompt: PROMPT, max_tokens: 20 }, emu.keys.standard)
    expect(res.status).toBe(200)
    expect(res.body.choices[0].images).toBeUndefined()
    expect(res.body.usage.cost).toBeLessThan(0.039)
  })
})
