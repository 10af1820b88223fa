// The video router over HTTP: every validation rule of every operation (in the vendor's envelope),
// the create responses, the task engine on the manual clock, overrides, query, cancel, list, credits
// and the media a successful task links to.
import { describe, expect, it } from 'vitest'
import { dataUri, jpeg, png, webp } from '../../helpers/images.ts'
import { testEmulator, type TestEmulator } from '../../helpers/emulator.ts'

const ROUTER = '/router/v1/video/ent/v2'
const IMG = dataUri(png(64, 36), 'image/png')
const IMG_JPEG = dataUri(jpeg(48, 48), 'image/jpeg')
const IMG_WEBP = dataUri(webp(40, 60), 'image/webp')
const URL_IMG = 'https://example.com/frame.png'

const create = (emu: TestEmulator, operation: string, body: unknown, headers: Record<string, string> = {}) =>
  emu.request({
    method: 'POST',
    url: `${ROUTER}/${operation}`,
    headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  })

const task = (emu: TestEmulator, id: string, key = emu.keys.standard) => emu.get(`${ROUTER}/tasks/${id}/creations`, key)

const VALID: Record<string, Record<string, unknown>> = {
  multiframe: { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, prompt: 'a', duration: 3 }, { key_image: URL_IMG }] },
  text2video: { model: 'videoq2', prompt: 'A fox runs through snow' },
  img2video: { model: 'videoq2-turbo', images: [IMG] },
  reference2video: { model: 'videoq2', images: [IMG, IMG_JPEG], prompt: 'The two of them dance' },
  'start-end2video': { model: 'videoq2-pro', images: [IMG, dataUri(png(128, 72), 'image/png')] },
  template2video: { template: 'hug', images: [IMG], prompt: 'hug', seed: '42' },
}

describe('creating tasks', () => {
  it.each([
    ['multiframe', { task_id: expect.stringMatching(/^\d{18}$/), state: 'created', model: 'videoq2-pro', resolution: '720p' }],
    [
      'text2video',
      {
        task_id: expect.any(String),
        type: 'text2video',
        state: 'created',
        model: 'videoq2',
        prompt: 'A fox runs through snow',
        duration: 5,
        resolution: '720p',
        off_peak: false,
      },
    ],
    [
      'img2video',
      { task_id: expect.any(String), type: 'img2video', state: 'created', model: 'videoq2-turbo', duration: 5, resolution: '720p', off_peak: false },
    ],
    ['reference2video', { task_id: expect.any(String), type: 'reference2video', state: 'created', model: 'videoq2' }],
    ['start-end2video', { task_id: expect.any(String), type: 'headtailimg2video', state: 'created', model: 'videoq2-pro', duration: 5, resolution: '720p' }],
    ['template2video', { task_id: expect.any(String), state: 'created', template: 'hug', resolution: '720p', duration: 4 }],
  ])('%s answers exactly the fields of the spec, defaults filled in', async (operation, expected) => {
    const emu = await testEmulator()
    const res = await create(emu, operation, { ...VALID[operation], unknown_field: 'ignored' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(expected)
  })

  it('fills defaults that depend on the model', async () => {
    const emu = await testEmulator()
    expect((await create(emu, 'text2video', { model: 'videoq1', prompt: 'x' })).body).toMatchObject({ duration: 5, resolution: '1080p' })
    expect((await create(emu, 'text2video', { model: 'video1.5', prompt: 'x' })).body).toMatchObject({ duration: 4, resolution: '360p' })
    expect((await create(emu, 'text2video', { model: 'video1.5', prompt: 'x', duration: 8 })).body).toMatchObject({ duration: 8, resolution: '720p' })
    expect((await create(emu, 'img2video', { model: 'video2.0', images: [IMG] })).body).toMatchObject({ duration: 4, resolution: '360p' })
    expect((await create(emu, 'img2video', { model: 'videoq3-pro', images: [IMG], duration: 16 })).body).toMatchObject({ duration: 16 })
  })

  // [reason, the vendor's exact message, the emulator's explanation in X-Emulator-Detail]
  const fieldLacking = (field: string): [string, string, unknown] => ['FieldLacking', `field is missing or empty: ${field}`, `${field} is required`]
  const invalid = (field: string, detail: string): [string, string, unknown] => ['FieldInvalid', `invalid field: ${field}`, `${field} ${detail}`]
  const count = (field: string, detail: string): [string, string, unknown] => [
    'FieldItemCountOutOfRange',
    `field item count out of range: ${field}`,
    `${field}: ${detail}`,
  ]

  it.each<[string, Record<string, unknown>, string, string, unknown]>([
    // required fields
    ['text2video', { prompt: 'x' }, ...fieldLacking('model')],
    ['text2video', { model: 'videoq2' }, ...fieldLacking('prompt')],
    ['text2video', { model: 'videoq2', prompt: '' }, ...fieldLacking('prompt')],
    ['img2video', { model: 'videoq2-pro' }, ...fieldLacking('images')],
    ['img2video', { model: 'videoq2-pro', images: [] }, ...fieldLacking('images')],
    ['reference2video', { model: 'videoq2', images: [IMG] }, ...fieldLacking('prompt')],
    ['start-end2video', { images: [IMG, IMG] }, ...fieldLacking('model')],
    ['multiframe', { model: 'videoq2-pro', image_settings: [{ key_image: IMG }, { key_image: IMG }] }, ...fieldLacking('start_image')],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ prompt: 'x' }, { key_image: IMG }] },
      ...fieldLacking('image_settings[0].key_image'),
    ],
    ['template2video', { images: [IMG], prompt: 'x', seed: 1 }, ...fieldLacking('template')],
    ['template2video', { template: 'hug', images: [IMG], seed: 1 }, ...fieldLacking('prompt')],
    ['template2video', { template: 'hug', images: [IMG], prompt: 'x' }, ...fieldLacking('seed')],
    // model lists per operation
    ['text2video', { model: 'videoq2-pro', prompt: 'x' }, ...invalid('model', 'must be one of videoq2, videoq1, video1.5, videoq3-pro, videoq3-turbo')],
    ['multiframe', { model: 'videoq2', start_image: IMG, image_settings: [] }, ...invalid('model', 'must be one of videoq2-pro, videoq2-turbo')],
    [
      'img2video',
      { model: 'video1.5', images: [IMG] },
      ...invalid('model', 'must be one of videoq3-pro, videoq2-pro-fast, videoq2-pro, videoq2-turbo, videoq1, video2.0, videoq3-turbo'),
    ],
    ['reference2video', { model: 'videoq3-pro', images: [IMG], prompt: 'x' }, ...invalid('model', 'must be one of videoq2, videoq1, video2.0, video1.5')],
    [
      'start-end2video',
      { model: 'video1.5', images: [IMG, IMG] },
      ...invalid('model', 'must be one of videoq2-pro-fast, videoq2-pro, videoq2-turbo, videoq1, video2.0, videoq3-turbo'),
    ],
    ['text2video', { model: 5, prompt: 'x' }, ...invalid('model', 'must be a string')],
    // prompt length
    ['text2video', { model: 'videoq2', prompt: 'p'.repeat(2001) }, ...invalid('prompt', 'at most 2000 characters')],
    // enums
    ['text2video', { model: 'videoq2', prompt: 'x', style: 'noir' }, ...invalid('style', 'must be one of general, anime')],
    ['text2video', { model: 'videoq2', prompt: 'x', aspect_ratio: '21:9' }, ...invalid('aspect_ratio', 'must be one of 16:9, 9:16, 3:4, 4:3, 1:1')],
    ['text2video', { model: 'videoq1', prompt: 'x', aspect_ratio: '4:3' }, ...invalid('aspect_ratio', 'videoq1 takes 16:9, 9:16, 1:1')],
    ['text2video', { model: 'videoq2', prompt: 'x', resolution: '4k' }, ...invalid('resolution', 'must be one of 360p, 540p, 720p, 1080p')],
    [
      'img2video',
      { model: 'videoq2-pro', images: [IMG], movement_amplitude: 'huge' },
      ...invalid('movement_amplitude', 'must be one of auto, small, medium, large'),
    ],
    // durations and resolutions per model
    ['text2video', { model: 'videoq2', prompt: 'x', duration: 11 }, ...invalid('duration', 'videoq2 takes 1 to 10 seconds')],
    ['text2video', { model: 'videoq1', prompt: 'x', duration: 4 }, ...invalid('duration', 'videoq1 takes 5 seconds')],
    ['text2video', { model: 'videoq2', prompt: 'x', duration: 2.5 }, ...invalid('duration', 'must be an integer number of seconds')],
    ['text2video', { model: 'videoq2', prompt: 'x', resolution: '360p' }, ...invalid('resolution', 'videoq2 at 5 s takes 540p, 720p, 1080p')],
    ['img2video', { model: 'video2.0', images: [IMG], duration: 8, resolution: '1080p' }, ...invalid('resolution', 'video2.0 at 8 s takes 720p')],
    ['img2video', { model: 'videoq2-pro-fast', images: [IMG], resolution: '540p' }, ...invalid('resolution', 'videoq2-pro-fast at 5 s takes 720p, 1080p')],
    ['start-end2video', { model: 'videoq2-pro', images: [IMG, IMG], duration: 9 }, ...invalid('duration', 'videoq2-pro takes 1 to 8 seconds')],
    ['reference2video', { model: 'video2.0', images: [IMG], prompt: 'x', duration: 8 }, ...invalid('duration', 'video2.0 takes 4 seconds')],
    // keyframes
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: Array.from({ length: 10 }, () => ({ key_image: IMG })) },
      ...count('image_settings', 'at most 9 key frames'),
    ],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, duration: 1 }, { key_image: IMG }] },
      ...invalid('image_settings[0].duration', 'must be an integer from 2 to 7 seconds'),
    ],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }, { key_image: IMG, duration: 8 }] },
      ...invalid('image_settings[1].duration', 'must be an integer from 2 to 7 seconds'),
    ],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }, { key_image: IMG }], resolution: '360p' },
      ...invalid('resolution', 'must be one of 540p, 720p, 1080p'),
    ],
    // image counts per operation
    ['img2video', { model: 'videoq2-pro', images: [IMG, IMG] }, ...count('images', 'exactly 1 image')],
    ['start-end2video', { model: 'videoq2-pro', images: [IMG] }, ...count('images', 'exactly 2 images')],
    ['start-end2video', { model: 'videoq2-pro', images: [IMG, IMG, IMG] }, ...count('images', 'exactly 2 images')],
    ['reference2video', { model: 'videoq2', images: Array.from({ length: 8 }, () => IMG), prompt: 'x' }, ...count('images', '1 to 7 images')],
    ['reference2video', { model: 'video2.0', images: [IMG, IMG, IMG, IMG], prompt: 'x' }, ...count('images', '1 to 3 images')],
    ['template2video', { template: 'hug', images: [IMG, IMG], prompt: 'x', seed: 1 }, ...count('images', 'exactly 1 image')],
    ['template2video', { template: 'wish_sender', images: [IMG], prompt: 'x', seed: 1 }, ...count('images', 'exactly 3 images')],
    ['template2video', { template: 'dynasty_dress', images: [IMG, IMG, IMG], prompt: 'x', seed: 1 }, ...count('images', '1 to 2 images')],
    [
      'template2video',
      { template: 'no_such_template', images: [IMG], prompt: 'x', seed: 1 },
      ...invalid('template', 'unknown template; see GET /router/v1/video/templates'),
    ],
    // images read from their bytes
    [
      'img2video',
      { model: 'videoq2-pro', images: ['data:image/gif;base64,R0lGODlhAQABAAAAACw='] },
      'ImageFormatInvalid',
      'invalid image format: images[0]',
      expect.stringMatching(/^images\[0\]: /),
    ],
    [
      'img2video',
      { model: 'videoq2-pro', images: [dataUri(Buffer.from('not an image at all'), 'image/png')] },
      'ImageFormatInvalid',
      'invalid image format: images[0]',
      expect.stringMatching(/^images\[0\]: /),
    ],
    [
      'img2video',
      { model: 'videoq2-pro', images: [dataUri(png(400, 100), 'image/png')] },
      'PageSizeOutOfRange',
      'page size out of range: images[0]',
      expect.stringMatching(/^images\[0\]: .*4:1/),
    ],
    [
      'img2video',
      { model: 'videoq2-pro', images: [dataUri(jpeg(20, 100), 'image/jpeg')] },
      'PageSizeOutOfRange',
      'page size out of range: images[0]',
      expect.stringMatching(/^images\[0\]: /),
    ],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: 'data:image/png;base64,!!!', image_settings: [{ key_image: IMG }, { key_image: IMG }] },
      'ImageFormatInvalid',
      'invalid image format: start_image',
      expect.stringMatching(/^start_image: /),
    ],
    [
      'start-end2video',
      { model: 'videoq2-pro', images: [dataUri(png(160, 90), 'image/png'), dataUri(png(90, 160), 'image/png')] },
      'FieldInvalid',
      'invalid field: images',
      expect.stringMatching(/^images the start and end frames' width\/height ratios differ/),
    ],
    // seed, callback_url, off-peak
    ['img2video', { model: 'videoq2-pro', images: [IMG], seed: 'abc' }, ...invalid('seed', 'must be an integer >= 0 or a string of digits')],
    ['img2video', { model: 'videoq2-pro', images: [IMG], seed: -1 }, ...invalid('seed', 'must be an integer >= 0 or a string of digits')],
    ['text2video', { model: 'videoq2', prompt: 'x', callback_url: 'ftp://example.com/hook' }, ...invalid('callback_url', 'must be an http or https URL')],
    ['text2video', { model: 'videoq2', prompt: 'x', callback_url: 'not a url' }, ...invalid('callback_url', 'must be an http or https URL')],
    ['img2video', { model: 'videoq3-pro', images: [IMG], off_peak: true, audio: true }, ...invalid('off_peak', 'off-peak mode does not support audio output')],
    ['text2video', { model: 'videoq2', prompt: 'x', off_peak: 'yes' }, ...invalid('off_peak', 'must be true or false')],
    ['text2video', { model: 'videoq2', prompt: 'x', payload: 7 }, ...invalid('payload', 'must be a string')],
    // what the body schemas catch, in the same words: null and '' are missing, a wrong type is invalid
    ['text2video', { model: null, prompt: 'x' }, ...fieldLacking('model')],
    ['text2video', { model: 'videoq2', prompt: null }, ...fieldLacking('prompt')],
    ['text2video', { model: 'videoq2', prompt: ['x'] }, ...invalid('prompt', 'must be a string')],
    ['template2video', { template: '', images: [IMG], prompt: 'x', seed: 1 }, ...fieldLacking('template')],
    ['template2video', { template: 'hug', images: [IMG], prompt: 'x', seed: '' }, ...fieldLacking('seed')],
    ['text2video', { model: 'videoq2', prompt: 'x', seed: 2.5 }, ...invalid('seed', 'must be an integer >= 0 or a string of digits')],
    ['text2video', { model: 'videoq2', prompt: 'x', seed: '99999999999999999999' }, ...invalid('seed', 'must be an integer >= 0 or a string of digits')],
    ['text2video', { model: 'videoq2', prompt: 'x', bgm: 1 }, ...invalid('bgm', 'must be true or false')],
    ['text2video', { model: 'videoq2', prompt: 'x', callback_url: 5 }, ...invalid('callback_url', 'must be a string')],
    ['text2video', { model: 'videoq2', prompt: 'x', duration: '5' }, ...invalid('duration', 'must be an integer number of seconds')],
    ['img2video', { model: 'videoq2-pro', images: null }, ...fieldLacking('images')],
    ['img2video', { model: 'videoq2-pro', images: IMG }, ...invalid('images', 'must be a list of image URLs or base64 images')],
    ['img2video', { model: 'videoq2-pro', images: [5] }, ...fieldLacking('images[0]')],
    ['start-end2video', { model: 'videoq2-pro', images: [IMG, ''] }, ...fieldLacking('images[1]')],
    ['multiframe', { model: 'videoq2-pro', start_image: 7 }, ...fieldLacking('start_image')],
    ['multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: 'x' }, ...invalid('image_settings', 'must be a list of key frames')],
    ['multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [null] }, ...invalid('image_settings[0]', 'must be an object with key_image')],
    ['multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: null }] }, ...fieldLacking('image_settings[0].key_image')],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, prompt: 5 }] },
      ...invalid('image_settings[0].prompt', 'must be a string'),
    ],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, prompt: 'p'.repeat(2001) }] },
      ...invalid('image_settings[0].prompt', 'at most 2000 characters'),
    ],
    [
      'multiframe',
      { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, duration: '3' }] },
      ...invalid('image_settings[0].duration', 'must be an integer from 2 to 7 seconds'),
    ],
  ])('%s %j is a 400 %s', async (operation, body, reason, message, detail) => {
    const emu = await testEmulator()
    const res = await create(emu, operation, body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: 400, reason, message, metadata: { trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) } })
    expect(res.headers['x-emulator-detail']).toEqual(detail)
  })

  it("multiframe: image_settings is optional, as the spec says; --multiframe-min-key-frames 2 asks for the vendor's 2 to 9", async () => {
    const spec = await testEmulator()
    expect((await create(spec, 'multiframe', { model: 'videoq2-pro', start_image: IMG })).body).toMatchObject({ state: 'created', model: 'videoq2-pro' })
    expect((await create(spec, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }] })).status).toBe(200)
    const vendor = await testEmulator({ multiframeMinKeyFrames: 2 })
    const none = await create(vendor, 'multiframe', { model: 'videoq2-pro', start_image: IMG })
    expect(none.body).toMatchObject({ code: 400, reason: 'FieldLacking', message: 'field is missing or empty: image_settings' })
    const one = await create(vendor, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG }] })
    expect(one.body).toMatchObject({ code: 400, reason: 'FieldItemCountOutOfRange', message: 'field item count out of range: image_settings' })
    expect(one.headers['x-emulator-detail']).toBe('image_settings: 2 to 9 key frames')
    const ten = await create(vendor, 'multiframe', {
      model: 'videoq2-pro',
      start_image: IMG,
      image_settings: Array.from({ length: 10 }, () => ({ key_image: IMG })),
    })
    expect(ten.headers['x-emulator-detail']).toBe('image_settings: 2 to 9 key frames')
    expect((await create(vendor, 'multiframe', { model: 'videoq2-pro', start_image: IMG, image_settings: null })).body.reason).toBe('FieldLacking')
  })

  it('accepts JPEG and WebP images, URLs, and a seed as a string of digits', async () => {
    const emu = await testEmulator()
    expect((await create(emu, 'img2video', { model: 'videoq2-pro', images: [IMG_JPEG], seed: '123' })).status).toBe(200)
    expect((await create(emu, 'img2video', { model: 'videoq2-pro', images: [IMG_WEBP], seed: 7 })).status).toBe(200)
    expect((await create(emu, 'img2video', { model: 'videoq2-pro', images: [URL_IMG] })).status).toBe(200)
    // Raw base64 without a data: prefix is read from its bytes too.
    expect((await create(emu, 'img2video', { model: 'videoq2-pro', images: [png(64, 64).toString('base64')] })).status).toBe(200)
  })

  it("401 in the vendor's words without a key, with an unknown key or with a management key; the reason in X-Emulator-Detail", async () => {
    const emu = await testEmulator()
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'No auth credentials found'],
      ['sk-gw-v1-nobody', 'User not found.'],
      [emu.keys.management, 'Management keys cannot be used for this operation: use a standard API key'],
    ]
    for (const [key, detail] of cases) {
      const res = await emu.request({
        method: 'POST',
        url: `${ROUTER}/text2video`,
        headers: { ...(key && { authorization: `Bearer ${key}` }), 'content-type': 'application/json' },
        payload: '{}',
      })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ code: 401, reason: 'Unauthorized', message: 'unauthorized', metadata: { trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) } })
      expect(res.headers['x-emulator-detail']).toBe(detail)
    }
  })

  it('a body that is not a JSON object is a 400 BadRequest', async () => {
    const emu = await testEmulator()
    const none = emu.request({ method: 'POST', url: `${ROUTER}/text2video`, headers: { authorization: `Bearer ${emu.keys.standard}` } })
    for (const res of [await create(emu, 'text2video', [1, 2]), await create(emu, 'text2video', null), await none]) {
      expect(res.body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'bad request' })
      expect(res.headers['x-emulator-detail']).toBe('the body must be a JSON object')
    }
  })

  it("takes null, and '' for a text, as not given: the defaults apply", async () => {
    const emu = await testEmulator()
    const unset = { style: '', resolution: null, aspect_ratio: '', movement_amplitude: null, seed: '', payload: null, callback_url: '', off_peak: null }
    const res = await create(emu, 'text2video', { model: 'videoq2', prompt: 'x', duration: null, ...unset })
    expect(res.body).toMatchObject({ duration: 5, resolution: '720p', off_peak: false })
    const { request } = (await emu.get(`/_emulator/api/video/tasks/${res.body.task_id}`)).body.data
    expect(request).toMatchObject({ style: 'general', aspect_ratio: '16:9', movement_amplitude: 'auto', payload: '', callback_url: null, off_peak: false })
    const frames = { model: 'videoq2-pro', start_image: IMG, image_settings: [{ key_image: IMG, prompt: '', duration: null }], resolution: '' }
    expect((await create(emu, 'multiframe', frames)).body).toMatchObject({ state: 'created', resolution: '720p' })
  })
})

describe('the task engine', () => {
  it('moves created -> queueing -> processing -> success on the clock, with progress and creations', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x', aspect_ratio: '9:16', resolution: '1080p', duration: 6 })).body.task_id
    const states: string[] = []
    const seen = async () => states.push((await task(emu, id)).body.state)
    await seen()
    await emu.clock.advance('1s')
    await seen()
    await emu.clock.advance('5s')
    await seen()
    await emu.clock.advance('10s')
    const halfway = (await task(emu, id)).body
    expect(halfway).toMatchObject({ state: 'processing', progress: 50, creations: [] })
    await emu.clock.advance('10s')
    await seen()
    expect(states).toEqual(['created', 'queueing', 'processing', 'success'])
    const done = (await task(emu, id)).body
    expect(done).toMatchObject({ id, type: 'text2video', model: 'videoq2', state: 'success', err_code: '', payload: '', progress: 100, off_peak: false })
    expect(done.credits).toBeGreaterThan(0)
    expect(done.creations).toHaveLength(1)
    expect(done.creations[0]).toEqual({
      id: expect.stringMatching(/^\d{18}$/),
      url: `http://localhost:80/router/v1/video/media/${id}/video.mp4`,
      cover_url: `http://localhost:80/router/v1/video/media/${id}/cover.jpg`,
      watermarked_url: `http://localhost:80/router/v1/video/media/${id}/watermarked.mp4`,
      video: { duration: 6, fps: 24, resolution: { width: 1080, height: 1920 } },
    })
  })

  it('serves the creation media, with ranges', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, 'img2video', { model: 'videoq2-pro', images: [IMG], watermark: true })).body.task_id
    expect((await emu.get(`/router/v1/video/media/${id}/video.mp4`)).status).toBe(404)
    await emu.clock.advance('1m')
    const video = await emu.app.inject({ method: 'GET', url: `/router/v1/video/media/${id}/video.mp4` })
    expect(video.statusCode).toBe(200)
    expect(video.headers['content-type']).toBe('video/mp4')
    // An MP4 begins with its ftyp box.
    expect(video.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp')
    const watermarked = await emu.app.inject({ method: 'GET', url: `/router/v1/video/media/${id}/watermarked.mp4` })
    // A task asked with a watermark serves the watermarked video at its plain URL too.
    expect(video.rawPayload.equals(watermarked.rawPayload)).toBe(true)
    const cover = await emu.app.inject({ method: 'GET', url: `/router/v1/video/media/${id}/cover.jpg` })
    expect(cover.headers['content-type']).toBe('image/jpeg')
    const part = await emu.app.inject({ method: 'GET', url: `/router/v1/video/media/${id}/video.mp4`, headers: { range: 'bytes=0-99' } })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/)
    expect(part.rawPayload).toHaveLength(100)
    const size = Number(part.headers['content-range']!.toString().split('/')[1])
    expect(video.rawPayload).toHaveLength(size)
    const tail = await emu.app.inject({ method: 'GET', url: `/router/v1/video/media/${id}/video.mp4`, headers: { range: 'bytes=-10' } })
    expect(tail.statusCode).toBe(206)
    expect(tail.rawPayload.equals(video.rawPayload.subarray(size - 10))).toBe(true)
    const beyond = await emu.app.inject({ method: 'GET', url: `/router/v1/video/media/${id}/video.mp4`, headers: { range: `bytes=${size}-` } })
    expect(beyond.statusCode).toBe(416)
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`)
    expect(beyond.json()).toMatchObject({ code: 416, metadata: { trace_id: expect.any(String) } })
    // A player revalidates cheaply: the same ETag answers 304.
    expect(video.headers['cache-control']).toBe('private, max-age=86400')
    const again = await emu.app.inject({
      method: 'GET',
      url: `/router/v1/video/media/${id}/video.mp4`,
      headers: { 'if-none-match': String(video.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
  })

  it('the X-Emulator-Video-Outcome header makes a task fail (refunded) or stick in processing', async () => {
    const emu = await testEmulator()
    const failed = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, { 'x-emulator-video-outcome': 'failed' })).body.task_id
    const stuck = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, { 'x-emulator-video-outcome': 'stuck' })).body.task_id
    const spentBefore = (await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage
    expect(spentBefore).toBeGreaterThan(0)
    await emu.clock.advance('1d')
    expect((await task(emu, failed)).body).toMatchObject({ state: 'failed', err_code: 'ModelUnavailable', credits: 0, creations: [] })
    expect((await task(emu, stuck)).body).toMatchObject({ state: 'processing' })
    // The failed task was refunded: only the stuck one is still paid for.
    const spentAfter = (await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage
    expect(spentAfter).toBeCloseTo(spentBefore / 2, 9)
    const bad = await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, { 'x-emulator-video-outcome': 'maybe' })
    expect(bad.body).toMatchObject({ code: 400, reason: 'BadRequest' })
  })

  it('the admin API advances, succeeds, fails with a code, and re-plans a task', async () => {
    const emu = await testEmulator()
    const make = async () => (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' })).body.task_id as string
    const a = await make()
    expect((await emu.send('POST', `/_emulator/api/video/tasks/${a}/advance`)).body.data.state).toBe('queueing')
    expect((await emu.send('POST', `/_emulator/api/video/tasks/${a}/advance`)).body.data.state).toBe('processing')
    const succeeded = (await emu.send('POST', `/_emulator/api/video/tasks/${a}/succeed`)).body.data
    expect(succeeded).toMatchObject({
      state: 'success',
      timeline: [{ state: 'created' }, { state: 'queueing' }, { state: 'processing' }, { state: 'success' }],
    })
    expect((await emu.send('POST', `/_emulator/api/video/tasks/${a}/fail`)).status).toBe(409)

    const b = await make()
    const failed = (await emu.send('POST', `/_emulator/api/video/tasks/${b}/fail`, { err_code: 'CreationPolicyViolation' })).body.data
    expect(failed).toMatchObject({ state: 'failed', err_code: 'CreationPolicyViolation', credits: 0 })

    const c = await make()
    await emu.send('POST', `/_emulator/api/video/tasks/${c}/outcome`, { outcome: 'failed', err_code: 'AuditSubmitIllegal' })
    await emu.clock.advance('1m')
    expect((await task(emu, c)).body).toMatchObject({ state: 'failed', err_code: 'AuditSubmitIllegal' })
    expect((await emu.send('POST', '/_emulator/api/video/tasks/000/advance')).status).toBe(404)
  })

  it("the admin view carries the task's prompt and requested duration, which its creation reports", async () => {
    const emu = await testEmulator()
    const three = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'A fox runs through snow', duration: 3 })).body.task_id as string
    const succeeded = (await emu.send('POST', `/_emulator/api/video/tasks/${three}/succeed`)).body.data
    expect(succeeded).toMatchObject({ prompt: 'A fox runs through snow', duration: 3, request: { duration: 3 } })
    expect(succeeded.creations[0].video.duration).toBe(3)
    expect((await task(emu, three)).body.creations[0].video.duration).toBe(3)

    // No duration given: the model's default, as the create answer said.
    const byDefault = await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' })
    expect(byDefault.body.duration).toBe(5)
    expect((await emu.get(`/_emulator/api/video/tasks/${byDefault.body.task_id}`)).body.data).toMatchObject({ prompt: 'x', duration: 5 })

    // Multi-frame: the key frames' prompts in order and their seconds summed; no prompt at all is null.
    const frames = (await create(emu, 'multiframe', VALID.multiframe)).body.task_id as string
    expect((await emu.get(`/_emulator/api/video/tasks/${frames}`)).body.data).toMatchObject({ prompt: 'a', duration: 8 })
    const silent = (await create(emu, 'img2video', VALID.img2video)).body.task_id as string
    const listed = (await emu.get('/_emulator/api/video/tasks')).body.data as Array<{ id: string; prompt: string | null; duration: number }>
    expect(listed.find((t) => t.id === silent)).toMatchObject({ prompt: null, duration: 5 })
  })

  it('dwell times, the path and the failure rate are configurable', async () => {
    const emu = await testEmulator({ videoQueueingMs: 0, videoProcessingMs: 60_000 })
    const id = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' })).body.task_id
    await emu.clock.advance('1s')
    expect((await task(emu, id)).body.state).toBe('processing')
    await emu.clock.advance('59s')
    expect((await task(emu, id)).body.state).toBe('processing')
    await emu.clock.advance('1s')
    expect((await emu.get(`/_emulator/api/video/tasks/${id}`)).body.data.timeline.map((t: { state: string }) => t.state)).toEqual([
      'created',
      'processing',
      'success',
    ])

    const settings = await emu.send('PUT', '/_emulator/api/video/settings', { failure_rate: 1, fail_code: 'CreationPolicyViolation' })
    expect(settings.body.data).toMatchObject({ failure_rate: 1, fail_code: 'CreationPolicyViolation', queueing_ms: 0 })
    const doomed = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' })).body.task_id
    await emu.clock.advance('2m')
    expect((await task(emu, doomed)).body).toMatchObject({ state: 'failed', err_code: 'CreationPolicyViolation' })
    expect((await emu.send('PUT', '/_emulator/api/video/settings', { failure_rate: 2 })).status).toBe(400)
  })

  it('a seeded failure rate fails about that share of tasks, the same ones for the same seed', async () => {
    const outcomes = async () => {
      const emu = await testEmulator({ videoFailureRate: 0.3 })
      const ids: string[] = []
      for (let i = 0; i < 40; i++) ids.push((await create(emu, 'text2video', { model: 'videoq2', prompt: `x${i}` })).body.task_id)
      await emu.clock.advance('1m')
      return Promise.all(ids.map(async (id) => (await task(emu, id)).body.state as string))
    }
    const first = await outcomes()
    expect(await outcomes()).toEqual(first)
    const failures = first.filter((s) => s === 'failed').length
    expect(failures).toBeGreaterThan(4)
    expect(failures).toBeLessThan(24)
  })

  it('off-peak tasks queue longer, cost half, and are cancelled and refunded after 48 hours', async () => {
    const emu = await testEmulator()
    const normal = (await create(emu, 'text2video', { model: 'videoq3-pro', prompt: 'x' })).body.task_id
    const offPeak = (await create(emu, 'text2video', { model: 'videoq3-pro', prompt: 'x', off_peak: true })).body
    expect(offPeak.off_peak).toBe(true)
    const credits = async (id: string) => (await emu.get(`/_emulator/api/video/tasks/${id}`)).body.data.credits
    expect(await credits(offPeak.task_id)).toBe((await credits(normal)) / 2)
    await emu.clock.advance('1m')
    expect((await task(emu, offPeak.task_id)).body.state).toBe('queueing')
    await emu.clock.advance('2h')
    expect((await task(emu, offPeak.task_id)).body.state).toBe('success')

    const late = (await create(emu, 'text2video', { model: 'videoq3-pro', prompt: 'x', off_peak: true }, { 'x-emulator-video-outcome': 'stuck' })).body.task_id
    await emu.clock.advance('47h')
    expect((await task(emu, late)).body.state).toBe('processing')
    await emu.clock.advance('1h')
    expect((await task(emu, late)).body).toMatchObject({ state: 'failed', err_code: 'UserCancelled', credits: 0 })
  })
})

describe('query, cancel and list', () => {
  it("404 TaskNotFound for an unknown task and for another account's", async () => {
    const emu = await testEmulator()
    const other = (await emu.send('POST', '/_emulator/api/accounts', { credits_usd: 10 })).body.data
    const theirs = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, { authorization: `Bearer ${other.standard_key}` })).body.task_id
    for (const id of ['123456789012345678', theirs]) {
      const res = await task(emu, id)
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ code: 404, reason: 'TaskNotFound', message: 'task not found' })
    }
    expect((await task(emu, theirs, other.standard_key)).status).toBe(200)
  })

  it('cancels a task before processing (refunded, UserCancelled), not after', async () => {
    const emu = await testEmulator()
    const id = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' })).body.task_id
    const cancel = (taskId: string) => emu.send('POST', `${ROUTER}/tasks/${taskId}/cancel`, {}, emu.keys.standard)
    const res = await cancel(id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({})
    expect((await task(emu, id)).body).toMatchObject({ state: 'failed', err_code: 'UserCancelled', credits: 0 })
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)

    const running = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' })).body.task_id
    await emu.clock.advance('10s')
    const late = await cancel(running)
    expect(late.status).toBe(400)
    expect(late.body).toMatchObject({ code: 400, reason: 'BadRequest', message: 'task state is processing, can not cancel' })
  })

  it('lists tasks, newest first, with a state filter and paging', async () => {
    const emu = await testEmulator()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await create(emu, 'text2video', { model: 'videoq2', prompt: `p${i}` })).body.task_id)
      await emu.clock.advance('1s')
    }
    const page = await emu.get(`${ROUTER}/tasks?pager.pagesz=2&pager.page=0`, emu.keys.standard)
    expect(page.body.tasks.map((t: { id: string }) => t.id)).toEqual([ids[4], ids[3]])
    expect(page.body.next_page_token).toBe('1')
    const last = await emu.get(`${ROUTER}/tasks?pager.pagesz=2&pager.page=2`, emu.keys.standard)
    expect(last.body).toMatchObject({ tasks: [{ id: ids[0], prompt: 'p0' }], next_page_token: '' })
    // Each task spent its first second in created; only a new one is there now.
    const fresh = (await create(emu, 'text2video', { model: 'videoq2', prompt: 'new' })).body.task_id
    const created = await emu.get(`${ROUTER}/tasks?states=created`, emu.keys.standard)
    expect(created.body.tasks.map((t: { id: string }) => t.id)).toEqual([fresh])
    const both = await emu.get(`${ROUTER}/tasks?states=created,queueing`, emu.keys.standard)
    expect(both.body.tasks).toHaveLength(6)
    expect((await emu.get(`${ROUTER}/tasks?pager.pagesz=101`, emu.keys.standard)).body).toMatchObject({ code: 400, reason: 'FieldInvalid' })
    expect((await emu.get(`${ROUTER}/tasks?states=done`, emu.keys.standard)).body).toMatchObject({ code: 400, reason: 'FieldInvalid' })
  })

  it('lists the templates with their image counts', async () => {
    const emu = await testEmulator()
    const res = await emu.get('/router/v1/video/templates', emu.keys.standard)
    expect(res.body.templates.find((t: { template: string }) => t.template === 'wish_sender')).toMatchObject({ images_min: 3, images_max: 3 })
  })
})

describe('credits', () => {
  it('charges the price table at creation through the ledger', async () => {
    const emu = await testEmulator()
    await create(emu, 'text2video', { model: 'videoq2', prompt: 'x', duration: 5, resolution: '720p' })
    // videoq2 at 720p: 10 + 3 credits per second = 25 credits, at $0.005 each.
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(0.125, 9)
  })

  it('too few credits is CreditInsufficient in the vendor envelope, and creates nothing', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, { authorization: `Bearer ${broke.standard_key}` })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: 400, reason: 'CreditInsufficient', message: 'insufficient credits', metadata: { trace_id: expect.any(String) } })
    expect(res.headers['x-emulator-detail']).toMatch(/credits/i)
    expect((await emu.get(`${ROUTER}/tasks`, broke.standard_key)).body.tasks).toEqual([])
  })

  it('the CreditInsufficient status can be 402', async () => {
    const emu = await testEmulator({ videoCreditStatus: 402 })
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await create(emu, 'text2video', { model: 'videoq2', prompt: 'x' }, { authorization: `Bearer ${broke.standard_key}` })
    expect(res.status).toBe(402)
    expect(res.body.code).toBe(402)
  })
})
