// Speech and transcriptions through the clients a user points at the emulator, over real HTTP: openai
// (speech bytes, and a multipart upload made with toFile) and @openrouter/sdk (its tts and stt
// namespaces: the audio stream, JSON and multipart transcriptions, typed errors).
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import OpenAI, { toFile } from 'openai'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const TTS = 'openai/gpt-4o-mini-tts'
const STT = 'openai/whisper-large-v3'
const SAID = 'Testing, one, two, three. Can you hear me?'

describe('openai', () => {
  it('speech.create returns the bytes; transcriptions.create uploads them and reads the text back', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const speech = await client.audio.speech.create({ model: TTS, voice: 'nova', input: SAID, response_format: 'mp3', instructions: 'Cheerfully.' })
    expect(speech.headers.get('content-type')).toBe('audio/mpeg')
    const mp3 = Buffer.from(await speech.arrayBuffer())
    expect(mp3.toString('latin1', 0, 3)).toBe('ID3')

    const plain = await client.audio.transcriptions.create({ model: STT, file: await toFile(mp3, 'speech.mp3') })
    expect(plain.text).toBe(SAID)
    const verbose = await client.audio.transcriptions.create({
      model: STT,
      file: await toFile(mp3, 'speech.mp3'),
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
      language: 'en',
    })
    expect(verbose.language).toBe('english')
    expect(verbose.duration).toBeGreaterThan(SAID.length / 15)
    expect(verbose.segments?.map((s) => s.text)).toEqual(['Testing, one, two, three.', 'Can you hear me?'])
    expect(verbose.words?.map((w) => w.word)).toEqual(['Testing', 'one', 'two', 'three', 'Can', 'you', 'hear', 'me'])

    // pcm, the default of the real document, is what speech.create gets when it names no format.
    const pcm = Buffer.from(await (await client.audio.speech.create({ model: TTS, voice: 'nova', input: SAID })).arrayBuffer())
    expect(pcm.length).toBe(Math.round((SAID.length / 15) * 24_000) * 2)
    expect((await client.audio.transcriptions.create({ model: STT, file: await toFile(pcm, 'speech.pcm') })).text).toBe(SAID)
  })

  it('audio.speech.create as wav: a file a player opens, that transcribes back to its text', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const speech = await client.audio.speech.create({ model: TTS, voice: 'nova', input: SAID, response_format: 'wav' })
    expect(speech.headers.get('content-type')).toBe('audio/wav')
    const wav = Buffer.from(await speech.arrayBuffer())
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF')
    expect((await client.audio.transcriptions.create({ model: STT, file: await toFile(wav, 'speech.wav') })).text).toBe(SAID)
  })

  it('surfaces refusals with their status and message', async () => {
    const emu = await listeningEmulator()
    const client = new OpenAI({ apiKey: emu.keys.standard, baseURL: `${emu.url}/api/v1`, maxRetries: 0 })
    const flac = await client.audio.speech.create({ model: TTS, voice: 'nova', input: 'x', response_format: 'flac' }).catch((e: unknown) => e)
    expect(flac).toBeInstanceOf(OpenAI.BadRequestError)
    expect((flac as InstanceType<typeof OpenAI.BadRequestError>).message).toBe('400 Field `response_format` must be one of mp3, pcm, wav')
    const text = await client.audio.transcriptions.create({ model: STT, file: await toFile(Buffer.from('hello'), 'notes.txt') }).catch((e: unknown) => e)
    expect(text).toBeInstanceOf(OpenAI.BadRequestError)
    expect((text as Error).message).toMatch(/^400 Field `file` has no format the emulator can measure/)
  })
})

describe('@openrouter/sdk', () => {
  it('tts.createSpeech streams the audio; stt transcribes it as JSON and as a form', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const stream = await client.tts.createSpeech({
      speechRequest: { model: 'mistralai/voxtral-mini-tts-2603', input: SAID, voice: 'chloe', responseFormat: 'pcm' },
    })
    const pcm = Buffer.from(await new Response(stream).arrayBuffer())
    expect(pcm.length).toBe(Math.round((SAID.length / 15) * 24_000) * 2)

    const json = await client.stt.createTranscription({ sttRequest: { model: STT, inputAudio: { data: pcm.toString('base64'), format: 'pcm' } } })
    expect(json.text).toBe(SAID)
    expect(json.usage?.seconds).toBeCloseTo(SAID.length / 15, 3)
    expect(json.usage?.cost).toBeGreaterThan(0)
    const form = await client.stt.createTranscriptionMultipart({
      requestBody: {
        model: STT,
        file: { fileName: 'speech.pcm', content: new Uint8Array(pcm) },
        responseFormat: 'verbose_json',
        timestampGranularities: ['word'],
      },
    })
    expect(form.text).toBe(SAID)
    expect(form.task).toBe('transcribe')
    expect(form.words).toHaveLength(8)
  })

  it('surfaces a 400 and a 402 as typed errors', async () => {
    const emu = await listeningEmulator()
    const client = new OpenRouter({ apiKey: emu.keys.standard, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const voice = await client.tts.createSpeech({ speechRequest: { model: TTS, input: 'x', voice: 'Kore' } }).catch((e: unknown) => e)
    expect(voice).toBeInstanceOf(errors.BadRequestResponseError)
    const broke = (await (await fetch(`${emu.url}/_emulator/api/accounts`, { method: 'POST' })).json()) as { data: { standard_key: string } }
    const poor = new OpenRouter({ apiKey: broke.data.standard_key, serverURL: `${emu.url}/api/v1`, retryConfig: { strategy: 'none' } })
    const err = await poor.stt
      .createTranscription({ sttRequest: { model: STT, inputAudio: { data: Buffer.alloc(4800).toString('base64'), format: 'pcm' } } })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(errors.PaymentRequiredResponseError)
  })
})
