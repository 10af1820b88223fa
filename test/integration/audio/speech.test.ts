// POST /api/v1/audio/speech: the bytes of each format, the length that follows the text, determinism,
// every refusal (status and body), and the ledger.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator } from '../../helpers/emulator.ts'
import { audioJson, form, mp3Frames, RATE, samplesOf, speak, transcribe, TTS, wav, WaveFile } from './audio-helpers.ts'

const TEXT = 'The quick brown fox jumps over the lazy dog. Does it?'

const peak = (samples: Int16Array): number => samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0)

describe('formats', () => {
  it('pcm by default: 16-bit mono at 24 kHz, 15 characters a second, audible, and playable once wrapped in a WAV', async () => {
    const emu = await testEmulator()
    const res = await speak(emu, { input: TEXT })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('audio/pcm')
    expect(res.headers['x-generation-id']).toMatch(/^gen-tts-\d+-[A-Za-z0-9]{20}$/)
    const seconds = TEXT.length / 15
    expect(res.bytes.length).toBe(Math.round(seconds * RATE) * 2)
    expect(Number(res.headers['content-length'])).toBe(res.bytes.length)
    const samples = samplesOf(res.bytes)
    expect(peak(samples)).toBeGreaterThan(5000)
    // Words are sound and the gaps between them silence (but for the tag in the lowest bit).
    const firstGap = Math.round(3.5 * (RATE / 15)) // the space after "The"
    expect(peak(samples.subarray(firstGap, firstGap + 400))).toBeLessThanOrEqual(1)

    const file = new WaveFile(wav(samples))
    expect((file.fmt as { sampleRate: number }).sampleRate).toBe(RATE)
    expect(file.getSamples(false, Int16Array)).toHaveLength(samples.length)
  })

  it('wav: the pcm samples in a WAV file that wavefile reads back, and that transcribes to the text', async () => {
    const emu = await testEmulator()
    const pcm = await speak(emu, { input: TEXT })
    const res = await speak(emu, { input: TEXT, response_format: 'wav' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('audio/wav')
    const file = new WaveFile(res.bytes)
    expect((file.fmt as { sampleRate: number; numChannels: number; bitsPerSample: number }).sampleRate).toBe(RATE)
    expect((file.fmt as { numChannels: number }).numChannels).toBe(1)
    expect(Buffer.from((file.getSamples(false, Int16Array) as unknown as Int16Array).buffer)).toEqual(pcm.bytes)
    const heard = await transcribe(emu, { input_audio: audioJson(res.bytes, 'wav') })
    expect(heard.status).toBe(200)
    expect(heard.body.text).toBe(TEXT)
  })

  it('the journal keeps the audio for the inspector: raw pcm as a playable WAV, mp3 as it was sent', async () => {
    const emu = await testEmulator()
    const pcm = await speak(emu, { input: TEXT })
    const mp3 = await speak(emu, { input: TEXT, response_format: 'mp3' })
    const [mp3Entry, pcmEntry] = (await emu.get('/_emulator/api/journal?operation=audio.speech')).body.data
    expect(pcmEntry.media).toEqual([{ index: 0, content_type: 'audio/wav', bytes: pcm.bytes.length + 44, kept: true }])
    const played = await emu.app.inject({ method: 'GET', url: `/_emulator/api/journal/${pcmEntry.id}/media/0` })
    expect(played.statusCode).toBe(200)
    expect(played.headers['content-type']).toBe('audio/wav')
    expect(played.headers['x-content-type-options']).toBe('nosniff')
    expect(Buffer.from((new WaveFile(played.rawPayload).getSamples(false, Int16Array) as unknown as Int16Array).buffer)).toEqual(pcm.bytes)
    const sent = await emu.app.inject({ method: 'GET', url: `/_emulator/api/journal/${mp3Entry.id}/media/0` })
    expect(sent.headers['content-type']).toBe('audio/mpeg')
    expect(sent.rawPayload).toEqual(mp3.bytes)
    const missing = await emu.app.inject({ method: 'GET', url: `/_emulator/api/journal/${mp3Entry.id}/media/1` })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().error.message).toContain(`Journal entry ${mp3Entry.id} holds no file 1`)
  })

  it('mp3: an ID3 tag, then MPEG-2 Layer III frames at 24 kHz and 48 kbps lasting as long as the text', async () => {
    const emu = await testEmulator()
    const res = await speak(emu, { input: TEXT, response_format: 'mp3' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('audio/mpeg')
    const { frames, seconds, tagged } = mp3Frames(res.bytes)
    expect(tagged).toBe(true)
    expect(frames).toBeGreaterThan(100)
    // The encoder adds its delay and pads the last frame: at most a few frames (24 ms each) more.
    expect(seconds).toBeGreaterThanOrEqual(TEXT.length / 15)
    expect(seconds).toBeLessThan(TEXT.length / 15 + 0.15)
  })

  it('lasts as long as the text; speed divides it for an OpenAI model and is ignored by the others', async () => {
    const emu = await testEmulator()
    const short = await speak(emu, { input: 'Hello there.' })
    const long = await speak(emu, { input: 'Hello there. '.repeat(10).trim() })
    expect(long.bytes.length).toBeGreaterThan(9 * short.bytes.length)
    const fast = await speak(emu, { input: 'Hello there.', speed: 2 })
    expect(fast.bytes.length).toBe(Math.round((12 / 30) * RATE) * 2)
    const gemini = { model: 'google/gemini-2.5-flash-preview-tts', voice: 'Kore', input: 'Hello there.' }
    expect((await speak(emu, { ...gemini, speed: 2 })).bytes).toEqual((await speak(emu, gemini)).bytes)
  })
})

describe('determinism', () => {
  it('the same request gives the same bytes; the voice, the instructions, the model and the seed change them', async () => {
    const emu = await testEmulator()
    const first = await speak(emu, { input: TEXT, voice: 'alloy' })
    const again = await speak(emu, { input: TEXT, voice: 'alloy' })
    expect(again.bytes).toEqual(first.bytes)
    // No voice named is the model's first voice.
    expect((await speak(emu, { input: TEXT })).bytes).toEqual(first.bytes)
    const digest = sha256Hex(first.bytes.toString('latin1'))
    const other = [
      await speak(emu, { input: TEXT, voice: 'onyx' }),
      await speak(emu, { input: TEXT, voice: 'alloy', instructions: 'Whisper it, slowly.' }),
      await speak(emu, { input: TEXT, model: 'mistralai/voxtral-mini-tts-2603', voice: 'alba' }),
      await speak(await testEmulator({ seed: 2 }), { input: TEXT, voice: 'alloy' }),
    ]
    for (const res of other) {
      expect(res.status).toBe(200)
      expect(res.bytes.length).toBe(first.bytes.length)
      expect(sha256Hex(res.bytes.toString('latin1'))).not.toBe(digest)
    }
  })
})

describe('refusals', () => {
  const cases: Array<[string, Record<string, unknown>, number, string, Record<string, unknown>?]> = [
    ['an unknown model', { model: 'nobody/nothing', input: 'x' }, 400, 'nobody/nothing is not a valid model ID', { field: 'model' }],
    [
      'a chat model',
      { model: 'openai/gpt-4o-mini', input: 'x' },
      400,
      'openai/gpt-4o-mini is not a text-to-speech model (it outputs text); choose a model whose output is speech or audio only',
      { field: 'model' },
    ],
    [
      'a chat model that can also speak',
      { model: 'openai/gpt-4o-audio-preview', input: 'x' },
      400,
      'openai/gpt-4o-audio-preview is not a text-to-speech model (it outputs text, audio); choose a model whose output is speech or audio only',
    ],
    [
      "another model's voice",
      { input: 'x', voice: 'Kore' },
      400,
      'Field `voice` must be one of alloy, ash, ballad, coral, echo, fable, nova, onyx, sage, shimmer, verse (the voices of openai/gpt-4o-mini-tts); "Kore" is none of them',
      { field: 'voice', supported_voices: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] },
    ],
    ['an empty voice', { input: 'x', voice: '' }, 400, 'Field `voice` must not be empty'],
    [
      'a format outside the enum',
      { input: 'x', response_format: 'flac' },
      400,
      'Field `response_format` must be one of mp3, pcm, wav',
      { field: 'response_format' },
    ],
    ['no input', {}, 400, 'Field `input` is required'],
    ['an empty input', { input: '' }, 400, 'Field `input` must not be empty'],
    ['an input of 4097 characters', { input: 'a'.repeat(4097) }, 400, 'Field `input` must be at most 4096 characters'],
    ['a speed above 4', { input: 'x', speed: 4.5 }, 400, 'Field `speed` must be <= 4'],
    ['a speed below 0.25', { input: 'x', speed: 0.1 }, 400, 'Field `speed` must be >= 0.25'],
    [
      'more than ten minutes of speech',
      { input: 'word '.repeat(800), speed: 0.25 },
      400,
      'Field `input` would be 1067 seconds of speech at speed 0.25, more than the 600 one request may make: shorten it or raise speed',
      { field: 'input', limit_seconds: 600 },
    ],
    [
      'more tokens than the context length',
      { input: 'a '.repeat(2040).trim() },
      400,
      'Field `input` is 2040 tokens, more than the 2000-token context length of openai/gpt-4o-mini-tts: shorten it',
      { field: 'input', limit: 2000, tokens: 2040 },
    ],
    [
      'a voice reference',
      { input: 'x', input_references: [{ type: 'input_audio', input_audio: { data: 'UklGRg==' } }] },
      404,
      'No endpoints found that support voice cloning (input_references) for openai/gpt-4o-mini-tts',
      { field: 'input_references' },
    ],
    [
      'a reference of an unknown type',
      { input: 'x', input_references: [{ type: 'video' }] },
      400,
      'Field `input_references[0].type` must be one of input_audio, text',
    ],
  ]

  it.each(cases)('%s', async (_name, body, status, message, metadata) => {
    const emu = await testEmulator()
    const res = await speak(emu, body)
    expect(res.status).toBe(status)
    expect(res.body.error.code).toBe(status)
    expect(res.body.error.message).toBe(message)
    if (metadata) expect(res.body.error.metadata).toMatchObject(metadata)
    // Nothing was billed.
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })

  it('a body that is not JSON (text, a form), a malformed one, no key and a management key', async () => {
    const emu = await testEmulator()
    const auth = { authorization: `Bearer ${emu.keys.standard}` }
    const text = await emu.request({ method: 'POST', url: '/api/v1/audio/speech', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' })
    expect(text.status).toBe(400)
    expect(text.body.error).toMatchObject({ message: 'Unsupported Content-Type: send the body as application/json', metadata: { field: 'content-type' } })
    const upload = await form({ model: TTS, input: 'x' })
    const multipart = await emu.request({
      method: 'POST',
      url: '/api/v1/audio/speech',
      headers: { ...auth, 'content-type': upload.contentType },
      payload: upload.payload,
    })
    expect(multipart.status).toBe(400)
    expect(multipart.body.error.message).toBe('Unsupported Content-Type: send the body as application/json')
    const malformed = await emu.request({
      method: 'POST',
      url: '/api/v1/audio/speech',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"model":',
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.message).toMatch(/^Malformed JSON body/)
    expect((await speak(emu, { input: 'x' }, null)).status).toBe(401)
    const management = await speak(emu, { input: 'x' }, emu.keys.management)
    expect(management.status).toBe(401)
    expect(management.body.error.code).toBe(401)
  })
})

describe('ledger', () => {
  it('bills the text at the prompt price and 20 audio tokens a second at the audio price; key usage, credits and the generation agree', async () => {
    const emu = await testEmulator()
    const res = await speak(emu, { input: 'Hello there, general.' })
    expect(res.status).toBe(200)
    // 21 characters: 1.4 s, 28 audio tokens at $0.000012; 5 tokens of text at $0.0000006.
    const cost = 5 * 0.0000006 + 28 * 0.000012
    const generation = (await emu.get(`/api/v1/generation?id=${String(res.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation).toMatchObject({ api_type: 'tts', model: TTS, tokens_prompt: 5, tokens_completion: 28, provider_name: 'OpenAI', streamed: false })
    expect(generation.total_cost).toBeCloseTo(cost, 9)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(cost, 9)
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key.usage).toBeCloseTo(cost, 9)
  })

  it('402 when credits run out: nothing billed, no audio', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await speak(emu, { input: 'Hello there.' }, broke.standard_key)
    expect(res.status).toBe(402)
    expect(res.body.error.metadata.limit_source).toBe('openrouter_credits')
    expect((await emu.get('/api/v1/credits', broke.standard_key)).body.data).toEqual({ total_credits: 0, total_usage: 0 })
  })

  it('a fault forced by X-Emulator-Fault answers instead, and bills nothing', async () => {
    const emu = await testEmulator()
    const res = await speak(emu, { input: 'Hello there.' }, emu.keys.standard, { 'x-emulator-fault': '503' })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe(503)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })
})
