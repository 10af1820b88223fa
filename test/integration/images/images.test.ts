// POST /api/v1/images and /api/v1/images/generations over HTTP: the answers' shapes, every size and
// format opened by a real decoder, determinism, every bad-input rule (status and body), billing
// through the ledger (per image), faults; and the image models list and endpoints.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { decodeDataUrl, decodeImage } from '../../helpers/decode-image.ts'
import { testEmulator, TEST_START, type TestEmulator } from '../../helpers/emulator.ts'
import { dataUri, png } from '../../helpers/images.ts'

const GPT_IMAGE = 'openai/gpt-image-1'
const CREATED = Date.parse(TEST_START) / 1000

type Body = Record<string, unknown>
const create = (emu: TestEmulator, body: Body, key = emu.keys.standard, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/images',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    payload: { model: GPT_IMAGE, prompt: 'a red panda astronaut floating in space', ...body },
  })
const openAi = (emu: TestEmulator, body: Body) =>
  emu.send('POST', '/api/v1/images/generations', { model: GPT_IMAGE, prompt: 'a red panda astronaut floating in space', ...body }, emu.keys.standard)

/** The images of a /images answer, decoded. */
const imagesOf = (body: { data: Array<{ b64_json: string; media_type: string }> }) =>
  body.data.map((d) => ({ mediaType: d.media_type, ...decodeImage(Buffer.from(d.b64_json, 'base64'), d.media_type) }))

const creditsUsed = async (emu: TestEmulator, key = emu.keys.standard): Promise<number> => (await emu.get('/api/v1/credits', key)).body.data.total_usage
const keyUsage = async (emu: TestEmulator): Promise<number> =>
  (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard)).usage

describe('POST /api/v1/images', () => {
  it('answers the real document’s shape: one PNG of the model’s default size, its usage, its generation', async () => {
    const emu = await testEmulator()
    const res = await create(emu, {})
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(Object.keys(res.body).sort()).toEqual(['created', 'data', 'usage'])
    expect(res.body.created).toBe(CREATED)
    const [image] = imagesOf(res.body)
    expect(image).toMatchObject({ mediaType: 'image/png', width: 1024, height: 1024 })
    const tokens = res.body.usage.prompt_tokens
    expect(tokens).toBeGreaterThan(0)
    // gpt-image-1: $0.042 an image and $0.000005 a prompt token.
    expect(res.body.usage).toEqual({
      prompt_tokens: tokens,
      completion_tokens: 0,
      total_tokens: tokens,
      cost: expect.closeTo(0.042 + tokens * 0.000005, 9),
      is_byok: false,
      cost_details: {
        upstream_inference_cost: null,
        upstream_inference_prompt_cost: expect.closeTo(tokens * 0.000005, 9),
        upstream_inference_completions_cost: expect.closeTo(0.042, 9),
      },
    })
    const id = res.headers['x-generation-id'] as string
    expect(id).toMatch(new RegExp(`^gen-img-${CREATED}-[0-9A-Za-z]{20}$`))
    const generation = await emu.get(`/api/v1/generation?id=${id}`, emu.keys.standard)
    expect(generation.body.data).toMatchObject({ id, model: GPT_IMAGE, api_type: 'image', streamed: false, finish_reason: 'stop', tokens_prompt: tokens })
    expect(generation.body.data.total_cost).toBeCloseTo(res.body.usage.cost, 9)
  })

  it.each([
    ['gpt-image-1, png', { size: '1536x1024', output_format: 'png' }, 'image/png', 1536, 1024],
    ['gpt-image-1, jpeg', { size: '1024x1536', output_format: 'jpeg', output_compression: 40 }, 'image/jpeg', 1024, 1536],
    ['gpt-image-1, webp', { aspect_ratio: '3:2', output_format: 'webp' }, 'image/webp', 1536, 1024],
    ['gpt-image-1, a size it lacks snaps to the nearest', { size: '512x512' }, 'image/png', 1024, 1024],
    [
      'seedream, 2K at 16:9, jpeg',
      { model: 'bytedance-seed/seedream-4.5', resolution: '2K', aspect_ratio: '16:9', output_format: 'jpeg' },
      'image/jpeg',
      2720,
      1536,
    ],
    ['seedream, a 4K tier', { model: 'bytedance-seed/seedream-4.5', size: '4K' }, 'image/png', 4096, 4096],
    ['flux schnell, explicit pixels', { model: 'black-forest-labs/flux.1-schnell', size: '800x600', output_format: 'jpeg' }, 'image/jpeg', 800, 600],
    ['flux schnell, webp it lacks: its png', { model: 'black-forest-labs/flux.1-schnell', output_format: 'webp' }, 'image/png', 1024, 1024],
    ['gemini, 21:9', { model: 'google/gemini-2.5-flash-image', aspect_ratio: '21:9' }, 'image/png', 1552, 656],
    ['dall-e-3, 16:9 snaps to its wide size', { model: 'openai/dall-e-3', aspect_ratio: '16:9' }, 'image/png', 1792, 1024],
  ] as const)('%s', async (_name, body, mediaType, width, height) => {
    const emu = await testEmulator()
    const res = await create(emu, body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [image] = imagesOf(res.body)
    expect(image).toMatchObject({ mediaType, width, height })
  })

  it('makes n different images, billed n times the per-image price', async () => {
    const emu = await testEmulator()
    const res = await create(emu, { model: 'bytedance-seed/seedream-4.5', n: 3, size: '1024x1024' })
    const images = imagesOf(res.body)
    expect(images).toHaveLength(3)
    expect(new Set(res.body.data.map((d: { b64_json: string }) => d.b64_json)).size).toBe(3)
    // Seedream: $0.04 an image, its prompt free.
    expect(res.body.usage.cost).toBeCloseTo(0.12, 9)
    expect(await keyUsage(emu)).toBeCloseTo(0.12, 9)
    expect(await creditsUsed(emu)).toBeCloseTo(0.12, 9)
  })

  it('is deterministic: the same request gives the same bytes, in another emulator too; prompt and seed change the image', async () => {
    const [one, two] = [await testEmulator(), await testEmulator()]
    const flux = { model: 'black-forest-labs/flux.1-dev', size: '256x256', seed: 7 }
    const first = (await create(one, flux)).body.data[0].b64_json
    expect((await create(one, flux)).body.data[0].b64_json).toBe(first)
    expect((await create(two, flux)).body.data[0].b64_json).toBe(first)
    expect((await create(one, { ...flux, prompt: 'a lighthouse at dusk' })).body.data[0].b64_json).not.toBe(first)
    expect((await create(one, { ...flux, seed: 8 })).body.data[0].b64_json).not.toBe(first)
    // gpt-image-1 takes no seed: a seed changes nothing, as the real one ignores it.
    const gpt = (await create(one, {})).body.data[0].b64_json
    expect((await create(one, { seed: 99 })).body.data[0].b64_json).toBe(gpt)
    // Another emulator seed draws another picture.
    const other = await testEmulator({ seed: 1234 })
    expect((await create(other, flux)).body.data[0].b64_json).not.toBe(first)
  })

  it('makes a transparent background where the model has the knob; ignores it where not', async () => {
    const emu = await testEmulator()
    for (const format of ['png', 'webp'] as const) {
      const [image] = imagesOf((await create(emu, { background: 'transparent', output_format: format })).body)
      expect(image!.data.some((v, i) => i % 4 === 3 && v === 0)).toBe(true)
    }
    const [flux] = imagesOf((await create(emu, { model: 'black-forest-labs/flux.1-dev', background: 'transparent' })).body)
    expect(flux!.data.every((v, i) => i % 4 !== 3 || v === 255)).toBe(true)
  })

  it('takes reference images (data URLs, unfetched http URLs) where the model does: they change the picture', async () => {
    const emu = await testEmulator()
    const plain = (await create(emu, {})).body.data[0].b64_json
    const reference = { type: 'image_url', image_url: { url: dataUri(png(8, 8), 'image/png') } }
    const edited = await create(emu, { input_references: [reference, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] })
    expect(edited.status).toBe(200)
    expect(edited.body.data[0].b64_json).not.toBe(plain)
  })

  it('ignores `stream`: no endpoint here streams, so the images come whole', async () => {
    const emu = await testEmulator()
    const res = await create(emu, { stream: true })
    expect(res.status).toBe(200)
    expect(imagesOf(res.body)).toHaveLength(1)
  })

  const refusals: Array<[string, Body, number, string, string | null]> = [
    ['no model', { model: undefined }, 400, 'Field `model` is required', 'model'],
    ['an empty prompt', { prompt: '' }, 400, 'Field `prompt` must not be empty', 'prompt'],
    ['a prompt of too many characters', { prompt: 'x'.repeat(128_001) }, 400, 'Field `prompt` must be at most 128000 characters', 'prompt'],
    [
      'a prompt past the context length',
      { model: 'black-forest-labs/flux.1-dev', prompt: 'lighthouse '.repeat(600) },
      400,
      'Field `prompt` is 1201 tokens, more than the 512 black-forest-labs/flux.1-dev reads',
      'prompt',
    ],
    ['an unknown model', { model: 'nobody/nothing' }, 400, 'nobody/nothing is not a valid model ID', 'model'],
    [
      'a model that makes no images',
      { model: 'openai/gpt-4o-mini' },
      400,
      'openai/gpt-4o-mini does not make images (it outputs text): choose a model whose output is image (GET /api/v1/images/models lists them)',
      'model',
    ],
    ['n of 11', { n: 11 }, 400, 'Field `n` must be <= 10', 'n'],
    ['n of 0', { n: 0 }, 400, 'Field `n` must be >= 1', 'n'],
    [
      'n of 2 for a one-image model',
      { model: 'openai/dall-e-3', n: 2 },
      400,
      'Field `n` must be 1 for openai/dall-e-3, which makes one image per request',
      'n',
    ],
    ['n of 5 for a model of 4', { model: 'black-forest-labs/flux.1-dev', n: 5 }, 400, 'Field `n` must be at most 4 for black-forest-labs/flux.1-dev', 'n'],
    [
      'more pixels than one request makes',
      { model: 'bytedance-seed/seedream-4.5', n: 2, size: '4K' },
      400,
      'Field `n` asks for 2 images of 4096x4096, 33554432 pixels in all, more than the 16777216 one request may make: ask for fewer or smaller images',
      'n',
    ],
    ['a size it cannot read', { size: 'huge' }, 400, 'Field `size` must be a tier (512, 1K, 2K, 4K), WIDTHxHEIGHT in pixels (e.g. 1024x1024), or auto', 'size'],
    ['a side too small', { size: '8x1024' }, 400, 'Field `size` must have sides from 16 to 16384 pixels (got 8x1024)', 'size'],
    [
      'more pixels than the model makes',
      { model: 'black-forest-labs/flux.1-dev', size: '2048x2048' },
      400,
      'Field `size` is 4194304 pixels, more than the 2097152 black-forest-labs/flux.1-dev makes',
      'size',
    ],
    [
      'a tier and a resolution that disagree',
      { model: 'bytedance-seed/seedream-4.5', size: '2K', resolution: '4K' },
      400,
      'Field `resolution` is 4K, but size is 2K: leave one out or make them agree',
      'resolution',
    ],
    [
      'explicit pixels and a ratio that disagree',
      { model: 'bytedance-seed/seedream-4.5', size: '2048x2048', aspect_ratio: '16:9' },
      400,
      'Field `aspect_ratio` is 16:9, but size 2048x2048 is not: an explicit size decides alone',
      'aspect_ratio',
    ],
    [
      'an aspect ratio outside the enum',
      { aspect_ratio: '7:3' },
      400,
      'Field `aspect_ratio` must be one of 1:1, 1:2, 1:4, 1:8, 2:1, 2:3, 3:2, 3:4, 4:1, 4:3, 4:5, 5:4, 8:1, 9:16, 16:9, 9:19.5, 19.5:9, 9:20, 20:9, 9:21, 21:9, auto',
      'aspect_ratio',
    ],
    ['a resolution outside the enum', { resolution: '8K' }, 400, 'Field `resolution` must be one of 512, 1K, 2K, 4K', 'resolution'],
    ['a format outside the enum', { output_format: 'gif' }, 400, 'Field `output_format` must be one of png, jpeg, webp, svg', 'output_format'],
    [
      'svg',
      { output_format: 'svg' },
      400,
      'Field `output_format` svg comes only from vectorization models, and none is served here: ask for png, jpeg or webp',
      'output_format',
    ],
    ['a compression over 100', { output_compression: 101 }, 400, 'Field `output_compression` must be <= 100', 'output_compression'],
    ['a quality outside the enum', { quality: 'ultra' }, 400, 'Field `quality` must be one of auto, low, medium, high', 'quality'],
    [
      'a transparent jpeg',
      { background: 'transparent', output_format: 'jpeg' },
      400,
      'Field `background` transparent needs an output_format with alpha (png or webp), not jpeg',
      'background',
    ],
    ['a seed that is no integer', { seed: 1.5 }, 400, 'Field `seed` must be an integer', 'seed'],
    [
      'references to a model that takes none',
      { model: 'openai/dall-e-3', input_references: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
      400,
      'Field `input_references` is not taken by openai/dall-e-3, which makes images from text alone',
      'input_references',
    ],
    [
      'more references than the model takes',
      {
        model: 'google/gemini-2.5-flash-image',
        input_references: Array.from({ length: 4 }, () => ({ type: 'image_url', image_url: { url: 'https://example.com/a.png' } })),
      },
      400,
      'Field `input_references` must have at most 3 images for google/gemini-2.5-flash-image',
      'input_references',
    ],
    [
      'more than 16 references',
      { input_references: Array.from({ length: 17 }, () => ({ type: 'image_url', image_url: { url: 'https://example.com/a.png' } })) },
      400,
      'Field `input_references` must have at most 16 items',
      'input_references',
    ],
    [
      'a reference that is not an image part',
      { input_references: [{ type: 'text', text: 'x' }] },
      400,
      'Field `input_references[0].image_url` is required',
      'input_references[0].image_url',
    ],
    [
      'a reference of another scheme',
      { input_references: [{ type: 'image_url', image_url: { url: 'ftp://example.com/a.png' } }] },
      400,
      'Field `input_references[0].image_url.url` must be a data URL of a PNG, JPEG or WebP image (data:image/png;base64,...) or an http(s) URL',
      'input_references[0].image_url.url',
    ],
    [
      'a reference that is not base64',
      { input_references: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,@@@@' } }] },
      400,
      'Field `input_references[0].image_url.url` is not valid base64',
      'input_references[0].image_url.url',
    ],
    [
      'a reference that is no image',
      { input_references: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from('hello, world').toString('base64')}` } }] },
      400,
      'Field `input_references[0].image_url.url` holds bytes that are not a PNG, JPEG or WebP image',
      'input_references[0].image_url.url',
    ],
  ]

  it.each(refusals)('refuses %s, billing nothing', async (_name, body, status, message, field) => {
    const emu = await testEmulator()
    const res = await create(emu, body)
    expect(res.status).toBe(status)
    expect(res.body.error).toMatchObject({ code: status, message, ...(field && { metadata: { field, location: 'body' } }) })
    expect(await creditsUsed(emu)).toBe(0)
  })

  it('routes by provider preferences; 404 when none is left', async () => {
    const emu = await testEmulator()
    const azure = await create(emu, { provider: { only: ['azure'] } })
    expect(azure.status).toBe(200)
    const generation = await emu.get(`/api/v1/generation?id=${azure.headers['x-generation-id']}`, emu.keys.standard)
    expect(generation.body.data.provider_name).toBe('Azure')
    const none = await create(emu, { provider: { only: ['nobody'] } })
    expect(none.status).toBe(404)
    expect(none.body.error.message).toBe('No endpoints found that match your provider preferences')
  })

  it('402 when credits run out, and nothing is billed or recorded', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await create(emu, {}, broke.standard_key)
    expect(res.status).toBe(402)
    expect(res.body.error.metadata.limit_source).toBe('openrouter_credits')
    expect((await emu.get('/api/v1/credits', broke.standard_key)).body.data).toEqual({ total_credits: 0, total_usage: 0 })
  })

  it('obeys guardrails: 404 when they leave the model no endpoint, 402 past a key limit', async () => {
    const emu = await testEmulator()
    const hash = sha256Hex(emu.keys.standard)
    const guardrail = (await emu.send('POST', '/api/v1/guardrails', { name: 'no openai', ignored_providers: ['openai', 'azure'] }, emu.keys.management)).body
      .data
    await emu.send('POST', `/api/v1/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [hash] }, emu.keys.management)
    const blocked = await create(emu, {})
    expect(blocked.status).toBe(404)
    expect(blocked.body.error.message).toBe('No endpoints available matching your guardrail restrictions and data policy')
    // Flux dev is served by Together and Novita: still allowed.
    expect((await create(emu, { model: 'black-forest-labs/flux.1-dev', size: '64x64' })).status).toBe(200)
    await emu.send('PATCH', `/api/v1/keys/${hash}`, { limit: 0.01 }, emu.keys.management)
    const overLimit = await create(emu, { model: 'black-forest-labs/flux.1-dev', size: '64x64' })
    expect(overLimit.status).toBe(402)
    expect(overLimit.body.error.message).toBe('Key limit exceeded (total limit)')
    expect(await creditsUsed(emu)).toBeCloseTo(0.025, 9)
  })

  it('401 for a management key (a standard key’s operation) and for none', async () => {
    const emu = await testEmulator()
    expect((await create(emu, {}, emu.keys.management)).status).toBe(401)
    const anonymous = await emu.request({
      method: 'POST',
      url: '/api/v1/images',
      headers: { 'content-type': 'application/json' },
      payload: { model: GPT_IMAGE, prompt: 'x' },
    })
    expect(anonymous.status).toBe(401)
  })

  it('429 past the rate limit, billing only what was admitted', async () => {
    const emu = await testEmulator({ rateLimitKeyPerMinute: 1 })
    const first = await create(emu, {})
    expect(first.status).toBe(200)
    const limited = await create(emu, {})
    expect(limited.status).toBe(429)
    expect(await creditsUsed(emu)).toBeCloseTo(first.body.usage.cost, 9)
  })

  it('answers a forced fault (X-Emulator-Fault) without making or billing anything', async () => {
    const emu = await testEmulator()
    const res = await create(emu, {}, emu.keys.standard, { 'x-emulator-fault': '503' })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe(503)
    expect(await creditsUsed(emu)).toBe(0)
  })

  it('keeps the images in the journal for the inspector', async () => {
    const emu = await testEmulator()
    const res = await create(emu, { n: 2, size: '1024x1024', output_format: 'webp' })
    const files = res.body.data.map((d: { b64_json: string }) => Buffer.from(d.b64_json, 'base64'))
    const entry = (await emu.get('/_emulator/api/journal?limit=1')).body.data[0]
    expect(entry.operation).toBe('images.create')
    expect(entry.media).toEqual(files.map((file: Buffer, index: number) => ({ index, content_type: 'image/webp', bytes: file.length, kept: true })))
    const kept = await emu.app.inject({ method: 'GET', url: `/_emulator/api/journal/${entry.id}/media/1` })
    expect(kept.headers['content-type']).toBe('image/webp')
    expect(kept.rawPayload.equals(files[1])).toBe(true)
  })
})

describe('POST /api/v1/images/generations (OpenAI’s shape)', () => {
  it('answers OpenAI’s ImagesResponse: b64_json, what was made, usage in input and output tokens', async () => {
    const emu = await testEmulator()
    const res = await openAi(emu, { size: '1536x1024', quality: 'high', output_format: 'jpeg' })
    expect(res.status).toBe(200)
    const { data, ...rest } = res.body
    const tokens = rest.usage.input_tokens
    expect(rest).toEqual({
      created: CREATED,
      background: 'opaque',
      output_format: 'jpeg',
      quality: 'high',
      size: '1536x1024',
      usage: {
        input_tokens: tokens,
        input_tokens_details: { image_tokens: 0, text_tokens: tokens },
        output_tokens: 0,
        output_tokens_details: { image_tokens: 0, text_tokens: 0 },
        total_tokens: tokens,
        cost: expect.closeTo(0.042 + tokens * 0.000005, 9),
      },
    })
    expect(Object.keys(data[0])).toEqual(['b64_json'])
    expect(decodeImage(Buffer.from(data[0].b64_json, 'base64'), 'image/jpeg')).toMatchObject({ width: 1536, height: 1024 })
    expect(res.headers['x-generation-id']).toMatch(/^gen-img-/)
  })

  it('gives a data URL for `response_format: "url"` (nothing is hosted), and the same picture /images makes', async () => {
    const emu = await testEmulator()
    const res = await openAi(emu, { model: 'openai/dall-e-3', size: '1024x1792', response_format: 'url' })
    expect(res.status).toBe(200)
    const image = decodeDataUrl(res.body.data[0].url)
    expect(image).toMatchObject({ mediaType: 'image/png', width: 1024, height: 1792 })
    const gateway = await create(emu, { model: 'openai/dall-e-3', size: '1024x1792' })
    expect(`data:image/png;base64,${gateway.body.data[0].b64_json}`).toBe(res.body.data[0].url)
  })

  it.each([
    [
      'stream',
      { stream: true },
      'Field `stream` is not supported here: no image endpoint of the emulator streams (leave it out for the whole images at once)',
      'stream',
    ],
    ['gif', { output_format: 'gif' }, 'Field `output_format` must be one of png, jpeg, webp, null', 'output_format'],
    ['a response format outside the enum', { response_format: 'file' }, 'Field `response_format` must be one of url, b64_json, null', 'response_format'],
    ['n of 2 for a one-image model', { model: 'openai/dall-e-3', n: 2 }, 'Field `n` must be 1 for openai/dall-e-3, which makes one image per request', 'n'],
    ['no model', { model: undefined }, 'Field `model` is required', 'model'],
  ])('refuses %s', async (_name, body, message, field) => {
    const emu = await testEmulator()
    const res = await openAi(emu, body)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 400, message, metadata: { field } })
  })
})

describe('GET /api/v1/images/models and its endpoints', () => {
  it('lists every catalog model that makes images, with its parameters and the path of its endpoints', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/images/models')
    expect(res.status).toBe(200)
    const catalog = (await emu.get('/api/v1/models?output_modalities=image')).body.data.map((m: { id: string }) => m.id)
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual(catalog)
    const seedream = res.body.data.find((m: { id: string }) => m.id === 'bytedance-seed/seedream-4.5')
    expect(seedream).toEqual({
      id: 'bytedance-seed/seedream-4.5',
      name: 'ByteDance Seed: Seedream 4.5',
      description: expect.any(String),
      created: expect.any(Number),
      architecture: { input_modalities: ['text', 'image'], output_modalities: ['image'] },
      supported_parameters: {
        size: { type: 'boolean' },
        resolution: { type: 'enum', values: ['2K', '4K'] },
        aspect_ratio: { type: 'enum', values: ['1:1', '4:3', '3:4', '16:9', '9:16', '3:2', '2:3', '21:9'] },
        n: { type: 'range', min: 1, max: 10 },
        output_format: { type: 'enum', values: ['png', 'jpeg'] },
        seed: { type: 'boolean' },
        input_references: { type: 'range', min: 1, max: 10 },
      },
      supports_streaming: false,
      endpoints: '/api/v1/images/models/bytedance-seed/seedream-4.5/endpoints',
    })
  })

  it('lists each endpoint with its prices as billable lines; 404 for a model that makes no images', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/api/v1/images/models/openai/gpt-image-1/endpoints')
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(GPT_IMAGE)
    expect(res.body.endpoints.map((e: { provider_name: string }) => e.provider_name)).toEqual(['OpenAI', 'Azure'])
    expect(res.body.endpoints[0]).toMatchObject({
      provider_slug: 'openai',
      provider_tag: 'openai',
      allowed_passthrough_parameters: [],
      supports_streaming: false,
      pricing: [
        { billable: 'output_image', unit: 'image', cost_usd: 0.042 },
        { billable: 'input_text', unit: 'token', cost_usd: 0.000005 },
      ],
      supported_parameters: {
        size: { type: 'enum', values: ['1024x1024', '1536x1024', '1024x1536'] },
        aspect_ratio: { type: 'enum', values: ['1:1', '3:2', '2:3'] },
      },
    })
    for (const path of ['openai/gpt-4o-mini', 'nobody/nothing']) {
      const missing = await emu.get(`/api/v1/images/models/${path}/endpoints`)
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({ error: { code: 404, message: `Image model ${path} not found` } })
    }
  })
})
