// POST /api/v1/audio/transcriptions: JSON and multipart, the round trip of the emulator's own speech,
// deterministic text for other audio, verbose_json, every refusal (status and body), and the ledger.
import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/emulator/core/rng.ts'
import { testEmulator } from '../../helpers/emulator.ts'
import { audioJson, flacHeader, samplesOf, speak, STT, tone, transcribe, transcribeForm, wav, type FilePart } from './audio-helpers.ts'

const SAID = 'Meet me at the old mill at noon. Bring the map, and come alone!'

describe('what it hears', () => {
  it("gives back the text of the emulator's own speech: pcm, mp3, and pcm wrapped in a WAV", async () => {
    const emu = await testEmulator()
    const pcm = (await speak(emu, { input: SAID })).bytes
    const mp3 = (await speak(emu, { input: SAID, response_format: 'mp3' })).bytes
    const fromPcm = await transcribe(emu, { input_audio: audioJson(pcm, 'pcm') })
    expect(fromPcm.status).toBe(200)
    expect(fromPcm.body.text).toBe(SAID)
    expect(fromPcm.body.usage.seconds).toBeCloseTo(SAID.length / 15, 3)
    expect(fromPcm.headers['x-generation-id']).toMatch(/^gen-stt-\d+-[A-Za-z0-9]{20}$/)
    const fromMp3 = await transcribe(emu, { input_audio: audioJson(mp3, 'mp3') })
    expect(fromMp3.body.text).toBe(SAID)
    expect(fromMp3.body.usage.seconds).toBeGreaterThanOrEqual(SAID.length / 15)
    const fromWav = await transcribeForm(emu, { model: STT }, [{ name: 'message.wav', bytes: wav(samplesOf(pcm)), type: 'audio/wav' }])
    expect(fromWav.status).toBe(200)
    expect(fromWav.body.text).toBe(SAID)
  })

  it('writes deterministic sentences for other audio, as many words as it is long (150 a minute); silence says nothing', async () => {
    const emu = await testEmulator()
    const tenSeconds = wav(tone(10, 440, 16_000), 16_000)
    const first = await transcribe(emu, { input_audio: audioJson(tenSeconds, 'wav') })
    expect(first.status).toBe(200)
    expect(first.body.text.split(' ')).toHaveLength(25)
    expect(first.body.text).toMatch(/^[A-Z].*[.!?]$/)
    expect(first.body.usage).toMatchObject({ seconds: 10, input_tokens: 100 })
    expect((await transcribe(emu, { input_audio: audioJson(tenSeconds, 'wav') })).body.text).toBe(first.body.text)
    // Another emulator with the same seed hears the same; other audio, another model or another seed hear otherwise.
    expect((await transcribe(await testEmulator(), { input_audio: audioJson(tenSeconds, 'wav') })).body.text).toBe(first.body.text)
    const others = [
      await transcribe(emu, { input_audio: audioJson(wav(tone(10, 441, 16_000), 16_000), 'wav') }),
      await transcribe(emu, { model: 'openai/gpt-4o-transcribe', input_audio: audioJson(tenSeconds, 'wav') }),
      await transcribe(await testEmulator({ seed: 2 }), { input_audio: audioJson(tenSeconds, 'wav') }),
    ]
    for (const other of others) expect(other.body.text).not.toBe(first.body.text)
    const silence = await transcribe(emu, { input_audio: audioJson(wav(new Int16Array(48_000)), 'wav') })
    expect(silence.body).toMatchObject({ text: '', usage: { seconds: 2, output_tokens: 0 } })
  })

  it('verbose_json: task, language, duration, segments covering the audio, and words when asked', async () => {
    const emu = await testEmulator()
    const pcm = (await speak(emu, { input: SAID })).bytes
    const res = await transcribe(emu, {
      input_audio: audioJson(pcm, 'pcm'),
      response_format: 'verbose_json',
      language: 'fr',
      timestamp_granularities: ['word', 'segment'],
    })
    expect(res.status).toBe(200)
    const duration = Math.round((SAID.length / 15) * 1000) / 1000
    expect(res.body).toMatchObject({ task: 'transcribe', language: 'french', duration, text: SAID })
    expect(res.body.segments.map((s: { text: string }) => s.text)).toEqual(['Meet me at the old mill at noon.', 'Bring the map, and come alone!'])
    expect(res.body.segments[0]).toMatchObject({ id: 0, seek: 0, start: 0, temperature: 0 })
    expect(res.body.segments.at(-1).end).toBe(duration)
    expect(res.body.segments[0].tokens.length).toBeGreaterThan(5)
    // "Meet" is the first four characters: 4/15 s.
    expect(res.body.words[0]).toEqual({ word: 'Meet', start: 0, end: 0.267 })
    expect(res.body.words.map((w: { word: string }) => w.word).join(' ')).toBe('Meet me at the old mill at noon Bring the map and come alone')
    // Without `word`, no words; json has only text and usage.
    const segmentsOnly = await transcribe(emu, { input_audio: audioJson(pcm, 'pcm'), response_format: 'verbose_json' })
    expect(segmentsOnly.body.words).toBeUndefined()
    expect(segmentsOnly.body.language).toBe('english')
    expect(Object.keys((await transcribe(emu, { input_audio: audioJson(pcm, 'pcm') })).body).sort()).toEqual(['text', 'usage'])
  })

  it('cuts a long sentence into segments of at most 30 seconds', async () => {
    const emu = await testEmulator()
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    const pcm = (await speak(emu, { input: long })).bytes
    const res = await transcribe(emu, { input_audio: audioJson(pcm, 'pcm'), response_format: 'verbose_json' })
    expect(res.body.segments.length).toBeGreaterThan(3)
    for (const s of res.body.segments) expect(s.end - s.start).toBeLessThanOrEqual(30)
    expect(res.body.segments.map((s: { text: string }) => s.text).join(' ')).toBe(long)
  })
})

describe('multipart', () => {
  it('takes the fields OpenAI clients send: repeated timestamp_granularities[], temperature as text, unknown fields ignored', async () => {
    const emu = await testEmulator()
    const pcm = (await speak(emu, { input: SAID })).bytes
    const res = await transcribeForm(
      emu,
      { model: STT, response_format: 'verbose_json', 'timestamp_granularities[]': ['word', 'segment'], temperature: '0.2', prompt: 'ignored', language: 'en' },
      [{ name: 'note.pcm', bytes: pcm }],
    )
    expect(res.status).toBe(200)
    expect(res.body.text).toBe(SAID)
    expect(res.body.segments[0].temperature).toBe(0.2)
    expect(res.body.words).toHaveLength(14)
  })

  it('takes the format from the content type, else from the bytes', async () => {
    const emu = await testEmulator()
    const mp3 = (await speak(emu, { input: SAID, response_format: 'mp3' })).bytes
    expect((await transcribeForm(emu, { model: STT }, [{ name: 'blob', bytes: mp3, type: 'audio/mpeg' }])).body.text).toBe(SAID)
    expect((await transcribeForm(emu, { model: STT }, [{ name: 'blob', bytes: mp3 }])).body.text).toBe(SAID)
  })
})

describe('refusals', () => {
  const wav1s = wav(tone(1, 440))
  const json: Array<[string, Record<string, unknown>, number, string, Record<string, unknown>?]> = [
    ['an unknown model', { model: 'nobody/nothing', input_audio: audioJson(wav1s, 'wav') }, 400, 'nobody/nothing is not a valid model ID'],
    [
      'a speech model',
      { model: 'openai/gpt-4o-mini-tts', input_audio: audioJson(wav1s, 'wav') },
      400,
      'openai/gpt-4o-mini-tts is not a speech-to-text model (it outputs audio); choose a model whose output is transcription',
      { field: 'model' },
    ],
    ['no input_audio', {}, 400, 'Field `input_audio` is required'],
    ['no format', { input_audio: { data: 'AAAA' } }, 400, 'Field `input_audio.format` is required'],
    ['empty data', { input_audio: { data: '', format: 'wav' } }, 400, 'Field `input_audio.data` must not be empty'],
    [
      'data that is not base64',
      { input_audio: { data: 'not base64!', format: 'wav' } },
      400,
      'Field `input_audio.data` is not valid base64',
      { field: 'input_audio.data' },
    ],
    [
      'a data URI',
      { input_audio: { data: `data:audio/wav;base64,${wav1s.toString('base64')}`, format: 'wav' } },
      400,
      'Field `input_audio.data` must be base64 of the raw bytes, not a data URI',
    ],
    [
      'a format the emulator cannot measure',
      { input_audio: { data: 'AAAA', format: 'aac' } },
      400,
      'Field `input_audio.format` must be one of wav, pcm, mp3, flac, ogg (Opus or Vorbis) and m4a (also wave, mpeg, mpga, oga, opus, mp4); the emulator cannot measure "aac" audio',
      { field: 'input_audio.format' },
    ],
    [
      'a WAV said to be an MP3',
      { input_audio: audioJson(wav1s, 'mp3') },
      400,
      'Field `input_audio.data` holds wav audio, not mp3: set input_audio.format to wav',
      { field: 'input_audio.data' },
    ],
    [
      'an MP3 that holds no frame',
      { input_audio: audioJson(Buffer.alloc(3000, 7), 'mp3') },
      400,
      'Field `input_audio.data` is not MP3 audio: no MPEG audio frame was found in it',
    ],
    [
      'a WAV cut short',
      { input_audio: audioJson(wav1s.subarray(0, 30), 'wav') },
      400,
      'Field `input_audio.data` is not a readable WAV file: its fmt chunk is too short',
    ],
    [
      'PCM of an odd length',
      { input_audio: audioJson(Buffer.alloc(3), 'pcm') },
      400,
      'Field `input_audio.data` is not 16-bit PCM: its length is an odd number of bytes',
    ],
    [
      'WebM audio',
      { input_audio: audioJson(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]), 'ogg') },
      400,
      'Field `input_audio.data` holds WebM audio, which the emulator cannot measure (it reads wav, pcm, mp3, flac, ogg (Opus or Vorbis) and m4a)',
    ],
    [
      'a FLAC header that claims five hours',
      { input_audio: audioJson(flacHeader(48_000, 48_000 * 18_000), 'flac') },
      400,
      'Field `input_audio.data` lasts 18000 seconds, more than the 14400 one request may transcribe: split it',
    ],
    [
      'a language that is not a code',
      { input_audio: audioJson(wav1s, 'wav'), language: 'english' },
      400,
      'Field `language` must be an ISO-639-1 code: two letters, such as en',
    ],
    [
      'a response format outside the enum',
      { input_audio: audioJson(wav1s, 'wav'), response_format: 'srt' },
      400,
      'Field `response_format` must be one of json, verbose_json',
    ],
    ['a temperature above 1', { input_audio: audioJson(wav1s, 'wav'), temperature: 1.5 }, 400, 'Field `temperature` must be <= 1'],
    [
      'an unknown granularity',
      { input_audio: audioJson(wav1s, 'wav'), timestamp_granularities: ['line'] },
      400,
      'Field `timestamp_granularities[0]` must be one of word, segment',
    ],
  ]

  it.each(json)('JSON: %s', async (_name, body, status, message, metadata) => {
    const emu = await testEmulator()
    const res = await transcribe(emu, body)
    expect(res.status).toBe(status)
    expect(res.body.error).toMatchObject({ code: status, message })
    if (metadata) expect(res.body.error.metadata).toMatchObject(metadata)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })

  it('JSON: more than 32 MB of audio', async () => {
    const emu = await testEmulator()
    const res = await transcribe(emu, { input_audio: { data: 'A'.repeat(45_000_000), format: 'pcm' } })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('Field `input_audio.data` must be at most 32 MB of audio')
  })

  const forms: Array<[string, Record<string, string | string[]>, FilePart[], number, string]> = [
    ['no file', { model: STT }, [], 400, 'Field `file` is required'],
    ['no model', {}, [{ name: 'a.wav', bytes: wav1s }], 400, 'Field `model` is required'],
    [
      'two files',
      { model: STT },
      [
        { name: 'a.wav', bytes: wav1s },
        { name: 'b.wav', bytes: wav1s },
      ],
      400,
      'Field `file` must be one file: the form holds more',
    ],
    ['a temperature that is not a number', { model: STT, temperature: 'warm' }, [{ name: 'a.wav', bytes: wav1s }], 400, 'Field `temperature` must be a number'],
    ['a model given twice', { model: [STT, STT] }, [{ name: 'a.wav', bytes: wav1s }], 400, 'Field `model` must be given once'],
    [
      'an unknown granularity',
      { model: STT, 'timestamp_granularities[]': 'line' },
      [{ name: 'a.wav', bytes: wav1s }],
      400,
      'Field `timestamp_granularities[][0]` must be one of word, segment',
    ],
    [
      'a file of no known format',
      { model: STT },
      [{ name: 'notes.txt', bytes: Buffer.from('just some text, no audio at all') }],
      400,
      'Field `file` has no format the emulator can measure: name it with an extension (.wav, .mp3...) or a content type; it reads wav, pcm, mp3, flac, ogg (Opus or Vorbis) and m4a',
    ],
    ['an empty file', { model: STT }, [{ name: 'a.wav', bytes: Buffer.alloc(0) }], 400, 'Field `file` must not be empty'],
    ['a WAV named as an MP3', { model: STT }, [{ name: 'a.mp3', bytes: wav1s }], 400, 'Field `file` holds wav audio, not mp3: name the file *.wav'],
    [
      'a file under another name',
      { model: STT },
      [{ field: 'audio', name: 'a.wav', bytes: wav1s }],
      400,
      'Field `audio` is a file, but the only file of this form is `file`',
    ],
    ['a field over 64 KB', { model: STT, language: 'x'.repeat(65 * 1024) }, [{ name: 'a.wav', bytes: wav1s }], 400, 'Field `language` must be at most 64 KB'],
    [
      'more than 32 fields',
      Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, 'x'])),
      [{ name: 'a.wav', bytes: wav1s }],
      400,
      'Malformed multipart/form-data body: it has more than 32 fields',
    ],
    [
      'a field named like a property of every object',
      { model: STT, constructor: 'x' },
      [{ name: 'a.wav', bytes: wav1s }],
      400,
      'Malformed multipart/form-data body: a field is named like a property of every object',
    ],
  ]

  it.each(forms)('form: %s', async (_name, fields, files, status, message) => {
    const emu = await testEmulator()
    const res = await transcribeForm(emu, fields, files)
    expect(res.status).toBe(status)
    expect(res.body.error).toMatchObject({ code: status, message })
  })

  it('form: a file over 25 MB is a 413 that points to JSON', async () => {
    const emu = await testEmulator()
    const res = await transcribeForm(emu, { model: STT }, [{ name: 'big.pcm', bytes: Buffer.alloc(25 * 1024 * 1024 + 2) }])
    expect(res.status).toBe(413)
    expect(res.body.error).toMatchObject({
      message: 'Field `file` is larger than 25 MB, the most one upload may hold: send larger audio as base64 JSON in input_audio',
      metadata: { field: 'file', limit_bytes: 25 * 1024 * 1024 },
    })
  })

  it('a malformed form, another content type, no body, and the keys', async () => {
    const emu = await testEmulator()
    const auth = { authorization: `Bearer ${emu.keys.standard}` }
    const url = '/api/v1/audio/transcriptions'
    const cut = await emu.request({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload:
        '--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\nopenai/whisper-large-v3\r\n--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
    })
    expect(cut.status).toBe(400)
    expect(cut.body.error.message).toMatch(/^Malformed multipart\/form-data body: /)
    const text = await emu.request({ method: 'POST', url, headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' })
    expect(text.status).toBe(400)
    expect(text.body.error.message).toBe('Unsupported Content-Type: send the body as application/json or multipart/form-data')
    const none = await emu.request({ method: 'POST', url, headers: auth })
    expect(none.status).toBe(400)
    expect(none.body.error.message).toBe('Request body is required: JSON with input_audio, or a multipart/form-data form with file')
    expect((await transcribe(emu, { input_audio: audioJson(wav1s, 'wav') }, null)).status).toBe(401)
    expect((await transcribe(emu, { input_audio: audioJson(wav1s, 'wav') }, emu.keys.management)).status).toBe(401)
    expect((await transcribeForm(emu, { model: STT }, [{ name: 'a.wav', bytes: wav1s }], null)).status).toBe(401)
  })
})

describe('ledger', () => {
  it('bills the seconds at the audio price and the text at the completion price; key usage, credits and the generation agree', async () => {
    const emu = await testEmulator()
    const audio = audioJson(wav(tone(4, 300)), 'wav')
    const whisper = await transcribe(emu, { input_audio: audio })
    // Whisper: $0.0001 a second, its text free.
    expect(whisper.body.usage.cost).toBeCloseTo(4 * 0.0001, 9)
    const gpt = await transcribe(emu, { model: 'openai/gpt-4o-transcribe', input_audio: audio })
    const outputTokens = gpt.body.usage.output_tokens
    expect(outputTokens).toBeGreaterThan(0)
    expect(gpt.body.usage).toMatchObject({ seconds: 4, input_tokens: 40, total_tokens: 40 + outputTokens })
    expect(gpt.body.usage.cost).toBeCloseTo(4 * 0.0001 + outputTokens * 0.00001, 9)
    const total = whisper.body.usage.cost + gpt.body.usage.cost
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBeCloseTo(total, 9)
    const key = (await emu.get('/api/v1/keys', emu.keys.management)).body.data.find((k: { hash: string }) => k.hash === sha256Hex(emu.keys.standard))
    expect(key.usage).toBeCloseTo(total, 9)
    const generation = (await emu.get(`/api/v1/generation?id=${String(gpt.headers['x-generation-id'])}`, emu.keys.standard)).body.data
    expect(generation).toMatchObject({ api_type: 'stt', model: 'openai/gpt-4o-transcribe', tokens_prompt: 40, tokens_completion: outputTokens })
    expect(generation.total_cost).toBeCloseTo(gpt.body.usage.cost, 9)
  })

  it('402 when credits run out, and nothing is billed', async () => {
    const emu = await testEmulator()
    const broke = (await emu.send('POST', '/_emulator/api/accounts', {})).body.data
    const res = await transcribe(emu, { input_audio: audioJson(wav(tone(1, 300)), 'wav') }, broke.standard_key)
    expect(res.status).toBe(402)
    expect(res.body.error.metadata.limit_source).toBe('openrouter_credits')
    expect((await emu.get('/api/v1/credits', broke.standard_key)).body.data).toEqual({ total_credits: 0, total_usage: 0 })
  })

  it('a fault forced by X-Emulator-Fault answers instead, for JSON and forms, and bills nothing', async () => {
    const emu = await testEmulator()
    const faulted = await emu.request({
      method: 'POST',
      url: '/api/v1/audio/transcriptions',
      headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json', 'x-emulator-fault': '429' },
      payload: JSON.stringify({ model: STT, input_audio: audioJson(wav(tone(1, 300)), 'wav') }),
    })
    expect(faulted.status).toBe(429)
    expect(faulted.body.error.code).toBe(429)
    await emu.send('POST', '/_emulator/api/faults', { match: { operation: 'audio.transcriptions' }, action: { status: 502 }, remaining: 1 })
    const form = await transcribeForm(emu, { model: STT }, [{ name: 'a.wav', bytes: wav(tone(1, 300)) }])
    expect(form.status).toBe(502)
    expect((await emu.get('/api/v1/credits', emu.keys.standard)).body.data.total_usage).toBe(0)
  })
})
