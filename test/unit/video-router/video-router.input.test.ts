// The video router's create checks, called directly: the schema failures worded as the vendor's checks
// word them (schemaError, through vendorBodyValidator), and what a schema cannot say (validateCreate):
// each model's durations, resolutions and aspect ratios, the seed, the callback URL, the payload, the
// frames' shapes, multiframe key frames and templates, with every default of the request filled in.
import { describe, expect, it } from 'vitest'
import { OwnAddresses } from '../../../src/emulator/http/own-addresses.ts'
import { validateCreate, vendorBodyValidator, type CreateRules } from '../../../src/emulator/modules/video-router/video-router.input.ts'
import { routerError } from '../../../src/emulator/modules/video-router/video-router.errors.ts'
import type { Operation } from '../../../src/emulator/modules/video-router/video-router.models.ts'
import { createBodies, MAX_PAYLOAD, type CreateBodies, type Template } from '../../../src/emulator/modules/video-router/video-router.schemas.ts'
import { dataUri, png } from '../../helpers/images.ts'
import { refusal, refusalOf } from '../../helpers/refusal.ts'

const IMG = dataUri(png(64, 36), 'image/png')
const SQUARE = dataUri(png(40, 40), 'image/png')
const URL_IMG = 'https://example.com/frame.png'
const RULES: CreateRules = { minKeyFrames: 2 }
const TEMPLATES = new Map<string, Template>([
  ['hug', { template: 'hug', images_min: 1, images_max: 2, tier: 'standard', duration: 4, resolution: '720p', aspect_ratios: ['16:9', '1:1'] }],
])

const create = <O extends Operation>(operation: O, body: Record<string, unknown>, rules: CreateRules = RULES) =>
  validateCreate(operation, body as unknown as CreateBodies[O], TEMPLATES, rules)

/** The vendor's answer for a bad field: reason, fixed message, and the emulator's detail. */
const invalid = (field: string, detail: string) => ({ status: 400, reason: 'FieldInvalid', message: `invalid field: ${field}`, detail: `${field} ${detail}` })
const lacking = (field: string) => ({ status: 400, reason: 'FieldLacking', message: `field is missing or empty: ${field}`, detail: `${field} is required` })
const countOut = (field: string, detail: string) => ({
  status: 400,
  reason: 'FieldItemCountOutOfRange',
  message: `field item count out of range: ${field}`,
  detail: `${field}: ${detail}`,
})

/** A body checked against its operation's schema as the route checks it: the value, or the vendor's error. */
function checkSchema(operation: Operation, body: unknown, minKeyFrames = 2) {
  const validate = vendorBodyValidator({ schema: createBodies(minKeyFrames)[operation], method: 'POST', url: `/${operation}`, httpPart: 'body' })
  const result = validate(body) as { value?: unknown; error?: unknown }
  if (!result.error) return { value: result.value }
  return refusal(() => {
    throw result.error
  })
}

describe('validateCreate fills in every default', () => {
  it('text2video: the model decides duration and resolution; style, ratio, amplitude and the flags take the vendor defaults', async () => {
    expect(await create('text2video', { model: 'videoq2', prompt: 'A fox' })).toEqual({
      operation: 'text2video',
      model: 'videoq2',
      template: null,
      prompt: 'A fox',
      images: [],
      duration: 5,
      resolution: '720p',
      aspect_ratio: '16:9',
      style: 'general',
      movement_amplitude: 'auto',
      seed: null,
      off_peak: false,
      audio: false,
      bgm: false,
      watermark: false,
      payload: '',
      callback_url: null,
      segments: null,
    })
  })

  it("takes null and '' as not given", async () => {
    const request = await create('text2video', {
      model: 'videoq2',
      prompt: 'p',
      style: '',
      resolution: null,
      aspect_ratio: '',
      movement_amplitude: null,
      seed: '',
    })
    expect(request).toMatchObject({ style: 'general', resolution: '720p', aspect_ratio: '16:9', movement_amplitude: 'auto', seed: null })
  })

  it('q3 models answer with sound unless told not to', async () => {
    expect((await create('text2video', { model: 'videoq3-pro', prompt: 'p' })).audio).toBe(true)
    expect((await create('text2video', { model: 'videoq3-pro', prompt: 'p', audio: false })).audio).toBe(false)
    expect((await create('text2video', { model: 'videoq2', prompt: 'p' })).audio).toBe(false)
  })

  it('the 1.5 and 2.0 models: 360p by default at 4 s, and only 720p at 8 s', async () => {
    expect(await create('text2video', { model: 'video1.5', prompt: 'p' })).toMatchObject({ duration: 4, resolution: '360p' })
    expect(await create('text2video', { model: 'video1.5', prompt: 'p', duration: 8 })).toMatchObject({ duration: 8, resolution: '720p' })
    expect(await refusalOf(create('text2video', { model: 'video1.5', prompt: 'p', duration: 8, resolution: '1080p' }))).toEqual(
      invalid('resolution', 'video1.5 at 8 s takes 720p'),
    )
  })

  it('img2video: the frame decides the shape (no aspect ratio, no style); a URL frame is taken as it is', async () => {
    expect(await create('img2video', { model: 'videoq2-turbo', images: [URL_IMG], prompt: '' })).toMatchObject({
      operation: 'img2video',
      images: [URL_IMG],
      prompt: null,
      aspect_ratio: null,
      style: null,
      duration: 5,
      resolution: '720p',
    })
  })
})

describe('validateCreate refuses what the model does not take', () => {
  it.each([
    ['videoq1', { duration: 8 }, invalid('duration', 'videoq1 takes 5 seconds')],
    ['videoq2', { duration: 11 }, invalid('duration', 'videoq2 takes 1 to 10 seconds')],
    ['video1.5', { duration: 5 }, invalid('duration', 'video1.5 takes 4 or 8 seconds')],
    ['videoq1', { resolution: '720p' }, invalid('resolution', 'videoq1 at 5 s takes 1080p')],
    ['videoq1', { aspect_ratio: '4:3' }, invalid('aspect_ratio', 'videoq1 takes 16:9, 9:16, 1:1')],
  ])('text2video %s %j', async (model, fields, expected) => {
    expect(await refusalOf(create('text2video', { model, prompt: 'p', ...fields }))).toEqual(expected)
  })

  it('start/end clips of the q2 family are at most 8 s', async () => {
    expect((await create('start-end2video', { model: 'videoq2-pro', images: [IMG, IMG], duration: 8 })).duration).toBe(8)
    expect(await refusalOf(create('start-end2video', { model: 'videoq2-pro', images: [IMG, IMG], duration: 9 }))).toEqual(
      invalid('duration', 'videoq2-pro takes 1 to 8 seconds'),
    )
  })

  it("reference2video: at most the model's reference images (3 for video2.0, 7 for videoq2)", async () => {
    expect((await create('reference2video', { model: 'video2.0', images: [IMG, IMG, IMG], prompt: 'p' })).images).toHaveLength(3)
    expect(await refusalOf(create('reference2video', { model: 'video2.0', images: [IMG, IMG, IMG, IMG], prompt: 'p' }))).toEqual(
      countOut('images', '1 to 3 images'),
    )
    expect(await refusalOf(create('reference2video', { model: 'videoq2', images: Array(8).fill(URL_IMG), prompt: 'p' }))).toEqual(
      countOut('images', '1 to 7 images'),
    )
  })

  it('off-peak queues take no direct audio for image and reference to video, but do for text to video', async () => {
    expect(await refusalOf(create('img2video', { model: 'videoq3-pro', images: [IMG], off_peak: true }))).toEqual(
      invalid('off_peak', 'off-peak mode does not support audio output'),
    )
    expect(await create('img2video', { model: 'videoq3-pro', images: [IMG], off_peak: true, audio: false })).toMatchObject({ off_peak: true, audio: false })
    expect(await create('text2video', { model: 'videoq3-pro', prompt: 'p', off_peak: true })).toMatchObject({ off_peak: true, audio: true })
  })
})

describe('validateCreate: seed, payload and callback URL', () => {
  it.each([
    [undefined, null],
    [0, null],
    ['0', null],
    [42, 42],
    ['42', 42],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ])('seed %j is %j (0 or none: drawn later)', async (seed, expected) => {
    expect((await create('text2video', { model: 'videoq2', prompt: 'p', seed })).seed).toBe(expected)
  })

  it('a string of digits past the largest safe integer is refused', async () => {
    expect(await refusalOf(create('text2video', { model: 'videoq2', prompt: 'p', seed: '9007199254740993' }))).toEqual(
      invalid('seed', 'must be an integer >= 0 or a string of digits'),
    )
  })

  it('a payload of at most MAX_PAYLOAD UTF-16 units passes through', async () => {
    expect((await create('text2video', { model: 'videoq2', prompt: 'p', payload: 'x'.repeat(MAX_PAYLOAD) })).payload).toHaveLength(MAX_PAYLOAD)
    expect(await refusalOf(create('text2video', { model: 'videoq2', prompt: 'p', payload: 'é'.repeat(MAX_PAYLOAD + 1) }))).toEqual(
      invalid('payload', `at most ${MAX_PAYLOAD} characters`),
    )
  })

  it.each(['ftp://example.com/cb', 'not a url', 'javascript:alert(1)'])('callback_url %s is not an http(s) URL', async (callback_url) => {
    expect(await refusalOf(create('text2video', { model: 'videoq2', prompt: 'p', callback_url }))).toEqual(
      invalid('callback_url', 'must be an http or https URL'),
    )
  })

  it("refuses a callback to the emulator's own listeners, on any loopback spelling, and takes any other port", async () => {
    const own = new OwnAddresses({ host: '127.0.0.1', allowedHosts: [] })
    own.add(4010)
    const rules: CreateRules = { own, minKeyFrames: 2 }
    for (const url of ['http://127.0.0.1:4010/cb', 'http://localhost:4010/cb', 'http://127.0.0.9:4010/x', 'http://[::1]:4010/']) {
      expect((await refusalOf(create('text2video', { model: 'videoq2', prompt: 'p', callback_url: url }, rules))).message, url).toBe(
        'invalid field: callback_url',
      )
    }
    expect((await refusalOf(create('text2video', { model: 'videoq2', prompt: 'p', callback_url: 'http://localhost:4010/cb' }, rules))).detail).toBe(
      'callback_url must not point at the emulator itself (localhost:4010): give the address of your own receiver',
    )
    expect((await create('text2video', { model: 'videoq2', prompt: 'p', callback_url: 'http://localhost:4011/cb' }, rules)).callback_url).toBe(
      'http://localhost:4011/cb',
    )
  })
})

describe('validateCreate: frames', () => {
  it("start-end2video: inline frames' width/height ratios within 0.8 to 1.25 of each other; URL frames are not measured", async () => {
    expect((await create('start-end2video', { model: 'videoq2-pro', images: [IMG, dataUri(png(128, 72), 'image/png')] })).images).toHaveLength(2)
    expect(await refusalOf(create('start-end2video', { model: 'videoq2-pro', images: [IMG, SQUARE] }))).toEqual(
      invalid('images', "the start and end frames' width/height ratios differ by 1.78x; keep them within 0.8 to 1.25"),
    )
    expect((await create('start-end2video', { model: 'videoq2-pro', images: [IMG, URL_IMG] })).images).toEqual([IMG, URL_IMG])
  })

  it('names the image whose bytes are not a PNG, JPEG or WebP', async () => {
    const bad = `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`
    expect(await refusalOf(create('reference2video', { model: 'videoq2', images: [IMG, bad], prompt: 'p' }))).toMatchObject({
      status: 400,
      reason: 'ImageFormatInvalid',
      message: 'invalid image format: images[1]',
      detail: expect.stringMatching(/^images\[1\]: /),
    })
  })
})

describe('validateCreate: multiframe', () => {
  it('adds up the key frames: each segment its duration (5 s by default) and its prompt', async () => {
    const request = await create('multiframe', {
      model: 'videoq2-pro',
      start_image: IMG,
      image_settings: [
        { key_image: URL_IMG, prompt: 'turn', duration: 3 },
        { key_image: IMG, prompt: '' },
      ],
    })
    expect(request).toMatchObject({
      operation: 'multiframe',
      images: [IMG, URL_IMG, IMG],
      duration: 8,
      resolution: '720p',
      seed: null,
      audio: false,
      segments: [
        { prompt: 'turn', duration: 3 },
        { prompt: null, duration: 5 },
      ],
    })
  })

  it('without key frames: refused while key frames are required, one segment from the start image when not', async () => {
    expect(await refusalOf(create('multiframe', { model: 'videoq2-pro', start_image: IMG }))).toEqual(lacking('image_settings'))
    expect(await create('multiframe', { model: 'videoq2-pro', start_image: IMG }, { minKeyFrames: 0 })).toMatchObject({
      images: [IMG],
      duration: 5,
      segments: [],
    })
  })

  it('names the key frame whose image is bad', async () => {
    const bad = `data:image/png;base64,${Buffer.from('nope').toString('base64')}`
    expect(
      (await refusalOf(create('multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }, { key_image: bad }] }))).message,
    ).toBe('invalid image format: image_settings[1].key_image')
  })
})

describe('validateCreate: template2video', () => {
  it("takes the template's duration and resolution, 16:9 unless another of its ratios is asked for", async () => {
    expect(await create('template2video', { template: 'hug', images: [IMG], prompt: 'p', seed: '7' })).toMatchObject({
      operation: 'template2video',
      model: null,
      template: 'hug',
      duration: 4,
      resolution: '720p',
      aspect_ratio: '16:9',
      seed: 7,
    })
    expect((await create('template2video', { template: 'hug', images: [IMG], prompt: 'p', seed: 1, aspect_ratio: '1:1' })).aspect_ratio).toBe('1:1')
  })

  it("refuses an unknown template, a count of images outside the template's, and a ratio it does not offer", async () => {
    expect(await refusalOf(create('template2video', { template: 'kiss', images: [IMG], prompt: 'p', seed: 1 }))).toEqual(
      invalid('template', 'unknown template; see GET /router/v1/video/templates'),
    )
    expect(await refusalOf(create('template2video', { template: 'hug', images: [IMG, IMG, IMG], prompt: 'p', seed: 1 }))).toEqual(
      countOut('images', '1 to 2 images'),
    )
    expect(await refusalOf(create('template2video', { template: 'hug', images: [IMG], prompt: 'p', seed: 1, aspect_ratio: '9:16' }))).toEqual(
      invalid('aspect_ratio', 'must be one of 16:9, 1:1 for hug'),
    )
  })
})

describe("a body that fails its schema, in the vendor's words", () => {
  it.each<[Operation, unknown, object]>([
    ['text2video', { model: 'videoq2' }, lacking('prompt')],
    ['text2video', { model: 'videoq2', prompt: '' }, lacking('prompt')],
    ['text2video', { prompt: 'p' }, lacking('model')],
    ['text2video', { model: 'sora', prompt: 'p' }, invalid('model', 'must be one of videoq2, videoq1, video1.5, videoq3-pro, videoq3-turbo')],
    ['text2video', { model: 'videoq2', prompt: 'p', style: 'noir' }, invalid('style', 'must be one of general, anime')],
    ['text2video', { model: 'videoq2', prompt: 'p', duration: 2.5 }, invalid('duration', 'must be an integer number of seconds')],
    ['text2video', { model: 'videoq2', prompt: 'p', seed: -1 }, invalid('seed', 'must be an integer >= 0 or a string of digits')],
    ['text2video', { model: 'videoq2', prompt: 'p', off_peak: 'yes' }, invalid('off_peak', 'must be true or false')],
    ['text2video', { model: 'videoq2', prompt: 'p'.repeat(2001) }, invalid('prompt', 'at most 2000 characters')],
    ['img2video', { model: 'videoq2-turbo', images: [IMG, IMG] }, countOut('images', 'exactly 1 image')],
    ['start-end2video', { model: 'videoq2-pro', images: [IMG] }, countOut('images', 'exactly 2 images')],
    ['img2video', { model: 'videoq2-turbo', images: [''] }, lacking('images[0]')],
    ['img2video', { model: 'videoq2-turbo', images: 'x' }, invalid('images', 'must be a list of image URLs or base64 images')],
    ['multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }] }, countOut('image_settings', '2 to 9 key frames')],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }, { key_image: IMG, duration: 9 }] },
      invalid('image_settings[1].duration', 'must be an integer from 2 to 7 seconds'),
    ],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }, 'x'] },
      invalid('image_settings[1]', 'must be an object with key_image'),
    ],
  ])('%s %j', async (operation, body, expected) => {
    expect(checkSchema(operation, body)).toEqual(expected)
  })

  it('a body that is not an object is a bad request', async () => {
    for (const body of [[], 'text', 42]) {
      expect(checkSchema('text2video', body)).toEqual({ status: 400, reason: 'BadRequest', message: 'bad request', detail: 'the body must be a JSON object' })
    }
  })

  it('ignores unknown fields, and lets a body that fits through unchanged', async () => {
    const body = { model: 'videoq2', prompt: 'p', whatever: { nested: true } }
    expect(checkSchema('text2video', body)).toEqual({ value: body })
  })

  it('with no key frames required, an empty list of them fits the schema', async () => {
    expect(checkSchema('multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [] }, 0)).toEqual({
      value: { model: 'videoq2-pro', start_image: IMG, image_settings: [] },
    })
  })
})

describe('routerError', () => {
  it('carries the reason, the detail and the status (400 unless given)', async () => {
    expect(
      refusal(() => {
        throw routerError('TaskNotFound', 'task not found', 'no task 1', 404)
      }),
    ).toEqual({ status: 404, reason: 'TaskNotFound', message: 'task not found', detail: 'no task 1' })
    expect(
      refusal(() => {
        throw routerError('BadRequest', 'bad request')
      }),
    ).toEqual({ status: 400, reason: 'BadRequest', message: 'bad request' })
  })
})
