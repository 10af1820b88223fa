// JSON bodies that carry media, read as they arrive (http/media-body.ts): a media field past its bound
// is refused in its area's words as its characters come in, the rest of a body past its budget is a
// 413 naming where, nesting past 64 levels a 400; each in the envelope of its API, with nothing stored.
// Bodies within the bounds are answered as before (the areas' own tests). The stalls and the memory of
// these refusals are measured apart from the client's own work, in a CLI process: cli/refused-bodies.load.test.ts.
import { describe, expect, it } from 'vitest'
import { MAX_BASE64_CHARS } from '../../../src/emulator/modules/audio/audio.schemas.ts'
import { MAX_FILE_BASE64_CHARS } from '../../../src/emulator/modules/files/files.schemas.ts'
import { listeningEmulator, type TestEmulator } from '../../helpers/emulator.ts'
import { png } from '../../helpers/images.ts'

const MB = 1024 * 1024
/** Base64 of just over the 50 MB an inline image may hold, as a data URI. */
const OVER_50_MB = `data:image/png;base64,${'A'.repeat(Math.ceil((50 * MB) / 3) * 4 + 300)}`
const SMALL_PNG = `data:image/png;base64,${png(64, 36).toString('base64')}`

const bytesOf = (body: unknown): Buffer => Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))

async function post(emu: TestEmulator & { url: string }, path: string, body: unknown, key: string | null = emu.keys.standard) {
  const res = await fetch(`${emu.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
    body: Buffer.isBuffer(body) ? body : bytesOf(body),
  })
  return { status: res.status, body: (await res.json()) as any, detail: res.headers.get('x-emulator-detail') }
}

/** Every table of the state: what a refused request must leave as it was. */
const tables = async (emu: TestEmulator) => (await emu.get('/_emulator/api/export')).body.tables

describe('media fields past their bound, refused as they arrive', () => {
  it('POST /videos: an inline frame or reference over 50 MB is a 400 naming it', async () => {
    const emu = await listeningEmulator()
    const before = await tables(emu)
    const body = bytesOf({ model: 'google/veo-3.1', frame_images: [{ type: 'image_url', image_url: { url: OVER_50_MB }, frame_type: 'first_frame' }] })
    const frame = await post(emu, '/api/v1/videos', body)
    expect(frame).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'Field `frame_images[0].image_url.url` is over the 50 MB limit',
          metadata: { field: 'frame_images[0].image_url.url', location: 'body', issue: 'is over the 50 MB limit' },
        },
      },
    })
    // Audio and video references are not read, but are bounded all the same.
    const reference = await post(emu, '/api/v1/videos', {
      model: 'google/veo-3.1',
      prompt: 'p',
      input_references: [
        { type: 'image_url', image_url: { url: SMALL_PNG } },
        { type: 'audio_url', audio_url: { url: `data:audio/mpeg;base64,${'A'.repeat(Math.ceil((50 * MB) / 3) * 4 + 300)}` } },
      ],
    })
    expect(reference.status).toBe(400)
    expect(reference.body.error.message).toBe('Field `input_references[1].audio_url.url` is over the 50 MB limit')
    expect(await tables(emu)).toEqual(before)
  })

  it("the video router: an image over 50 MB is PageSizeOutOfRange in the vendor's words", async () => {
    const emu = await listeningEmulator()
    const before = await tables(emu)
    const cases: Array<[string, unknown, string]> = [
      ['img2video', { model: 'videoq2-pro', images: [OVER_50_MB.slice('data:image/png;base64,'.length)] }, 'images[0]'],
      [
        'multiframe',
        { model: 'videoq2-pro', start_image: SMALL_PNG, image_settings: [{ key_image: SMALL_PNG }, { key_image: OVER_50_MB }] },
        'image_settings[1].key_image',
      ],
    ]
    for (const [operation, json, field] of cases) {
      const body = bytesOf(json)
      const res = await post(emu, `/router/v1/video/ent/v2/${operation}`, body)
      expect(res.status, operation).toBe(400)
      expect(res.body).toEqual({
        code: 400,
        reason: 'PageSizeOutOfRange',
        message: `page size out of range: ${field}`,
        metadata: { trace_id: expect.any(String) },
      })
      expect(res.detail).toBe(`${field}: over the 50 MB limit`)
    }
    expect(await tables(emu)).toEqual(before)
  })

  it('POST /audio/transcriptions: base64 audio over its 32 MB is a 400 naming input_audio.data', async () => {
    const emu = await listeningEmulator()
    const before = await tables(emu)
    const body = bytesOf({ model: 'openai/whisper-large-v3', input_audio: { data: 'A'.repeat(MAX_BASE64_CHARS + 1), format: 'pcm' } })
    const res = await post(emu, '/api/v1/audio/transcriptions', body)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 400,
      message: 'Field `input_audio.data` must be at most 32 MB of audio',
      metadata: { field: 'input_audio.data', location: 'body', issue: 'must be at most 32 MB of audio' },
    })
    expect(await tables(emu)).toEqual(before)
  })

  it("the admin API's server-side file: content_base64 past its bound is a 400 in the validator's words", async () => {
    const emu = await listeningEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0].id as string
    const before = await tables(emu)
    const res = await post(emu, `/_emulator/api/accounts/${account}/files`, { filename: 'a.bin', content_base64: 'A'.repeat(MAX_FILE_BASE64_CHARS + 4) }, null)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: 400,
      message: `Field \`content_base64\` must be at most ${MAX_FILE_BASE64_CHARS} characters`,
      metadata: { field: 'content_base64', location: 'body', issue: `must be at most ${MAX_FILE_BASE64_CHARS} characters` },
    })
    expect(await tables(emu)).toEqual(before)
  })
})

describe('the rest of a media body', () => {
  it('past its budget is a 413 naming the field where it ran out, in each envelope', async () => {
    const emu = await listeningEmulator()
    const before = await tables(emu)
    const long = 'x'.repeat(3 * MB)
    const videos = await post(emu, '/api/v1/videos', { model: 'google/veo-3.1', prompt: long })
    expect(videos.status).toBe(413)
    expect(videos.body.error).toEqual({
      code: 413,
      message:
        'Request payload too large: besides its media (`frame_images[].image_url.url`, `input_references[].image_url.url`, `input_references[].audio_url.url`, `input_references[].video_url.url`), a body of this route holds at most 1 MB, and this one passes that at `prompt`',
      metadata: { field: 'prompt', location: 'body', limit_bytes: MB },
    })
    const images = await post(emu, '/api/v1/images', { model: 'openai/gpt-image-1', prompt: 'p', provider: { order: [long] } })
    expect(images.status).toBe(413)
    expect(images.body.error.metadata).toEqual({ field: 'provider.order[0]', location: 'body', limit_bytes: 2 * MB })
    const transcription = await post(emu, '/api/v1/audio/transcriptions', {
      model: 'openai/whisper-large-v3',
      padding: ' '.repeat(100_000),
      input_audio: { data: 'AAAA', format: 'pcm' },
    })
    expect(transcription.status).toBe(413)
    expect(transcription.body.error.metadata).toEqual({ field: 'padding', location: 'body', limit_bytes: 64 * 1024 })
    const router = await post(emu, '/router/v1/video/ent/v2/text2video', { model: 'videoq2', prompt: 'p', payload: 'x'.repeat(9 * MB) })
    expect(router.status).toBe(413)
    expect(router.body).toMatchObject({
      code: 413,
      reason: 'RequestTooLarge',
      message: expect.stringMatching(/holds at most 8 MB, and this one passes that at `payload`$/),
    })
    expect(await tables(emu)).toEqual(before)
  })

  it('nested past 64 levels is the 400 every JSON body gets; malformed JSON is a 400 as before', async () => {
    const emu = await listeningEmulator()
    const deep = await post(emu, '/api/v1/videos', `{"model":"google/veo-3.1","provider":${'['.repeat(70)}${']'.repeat(70)}}`)
    expect(deep.status).toBe(400)
    expect(deep.body.error).toEqual({
      code: 400,
      message: 'Request body nests objects and arrays more than 64 levels deep; no request of this API needs that many',
      metadata: { field: 'body', location: 'body', limit: 64 },
    })
    const malformed = await post(emu, '/api/v1/images', '{"model": "openai/gpt-image-1", "prompt": ')
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.message).toMatch(/^Malformed JSON body: /)
    const empty = await fetch(`${emu.url}/api/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
    })
    expect(empty.status).toBe(400)
    expect(((await empty.json()) as any).error.message).toBe('Request body is empty but Content-Type is application/json: send a JSON body or no Content-Type')
  })

  it('within its bounds is answered as any JSON body: a video from an inline first frame, and its journal entry keeps the body', async () => {
    const emu = await listeningEmulator()
    const res = await post(emu, '/api/v1/videos', {
      model: 'google/veo-3.1',
      prompt: 'a harbour',
      frame_images: [{ type: 'image_url', image_url: { url: SMALL_PNG }, frame_type: 'first_frame' }],
    })
    expect(res.status).toBe(202)
    const entry = (await emu.get('/_emulator/api/journal?limit=1')).body.data[0]
    expect(JSON.stringify(entry)).toContain('a harbour')
  })
})
