// The contract cases of speech and transcriptions. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { audioJson, form, tone, wav } from './audio-helpers.ts'
import { CHAT_MODEL, auth, send, malformed, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'audio.speech': { gateway: ['post', '/audio/speech'] },
  'audio.transcriptions': { gateway: ['post', '/audio/transcriptions'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'audio.transcriptions 413':
    'an upload over 25 MB: the document names the 25 MB limit but declares no 413 here; the gateway answers PayloadTooLargeResponse elsewhere, and @openrouter/sdk 1.3 maps a 413 for this operation',
}

const TTS_MODEL = 'openai/gpt-4o-mini-tts'
const STT_MODEL = 'openai/whisper-large-v3'
const speechRequest = (body: Record<string, unknown>, key: string | undefined) => ({
  method: 'POST' as const,
  url: '/api/v1/audio/speech',
  headers: { ...auth(key), 'content-type': 'application/json' },
  payload: JSON.stringify({ model: TTS_MODEL, ...body }),
})
/** Audio answers are bytes: the body checked is their text, against the document's binary string. */
const speech = (emu: TestEmulator, body: Record<string, unknown>, key: string | undefined = emu.keys.standard) => emu.request(speechRequest(body, key))
const transcription = (emu: TestEmulator, body: Record<string, unknown>, key: string | undefined) =>
  send(emu, 'POST', '/api/v1/audio/transcriptions', { model: STT_MODEL, ...body }, key)
const upload = (emu: TestEmulator, body: { payload: Buffer; contentType: string }) =>
  emu.request({
    method: 'POST',
    url: '/api/v1/audio/transcriptions',
    headers: { ...auth(emu.keys.standard), 'content-type': body.contentType },
    payload: body.payload,
  })

export const cases: Case[] = [
  { operation: 'audio.speech', name: 'pcm (the default)', status: 200, run: (emu) => speech(emu, { input: 'Hello there.' }) },
  {
    operation: 'audio.speech',
    name: 'mp3',
    status: 200,
    run: (emu) => speech(emu, { input: 'Hello there.', response_format: 'mp3', voice: 'nova', speed: 1.5 }),
  },
  { operation: 'audio.speech', name: 'a voice of another model', status: 400, run: (emu) => speech(emu, { input: 'x', voice: 'Kore' }) },
  { operation: 'audio.speech', name: 'flac, outside the formats served', status: 400, run: (emu) => speech(emu, { input: 'x', response_format: 'flac' }) },
  { operation: 'audio.speech', name: 'wav, served beside mp3 and pcm', status: 200, run: (emu) => speech(emu, { input: 'x', response_format: 'wav' }) },
  { operation: 'audio.speech', name: 'a chat model', status: 400, run: (emu) => speech(emu, { input: 'x', model: CHAT_MODEL }) },
  { operation: 'audio.speech', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/audio/speech', emu.keys.standard) },
  { operation: 'audio.speech', name: 'no credits', status: 402, run: async (emu) => speech(emu, { input: 'x' }, await brokeAccountKey(emu)) },
  {
    operation: 'audio.speech',
    name: 'a voice reference (no endpoint clones voices)',
    status: 404,
    run: (emu) => speech(emu, { input: 'x', input_references: [{ type: 'text', text: 'hi' }] }),
  },
  {
    operation: 'audio.speech',
    name: 'a 429 fault',
    status: 429,
    run: (emu) => {
      const request = speechRequest({ input: 'x' }, emu.keys.standard)
      return emu.request({ ...request, headers: { ...request.headers, 'x-emulator-fault': '429' } })
    },
  },
  ...authCases('audio.speech', (emu, key) => emu.request(speechRequest({ input: 'x' }, key)), 'standard'),
  {
    operation: 'audio.transcriptions',
    name: 'JSON',
    status: 200,
    run: (emu) => transcription(emu, { input_audio: audioJson(wav(tone(1, 440)), 'wav') }, emu.keys.standard),
  },
  {
    operation: 'audio.transcriptions',
    name: 'verbose_json with words',
    status: 200,
    run: (emu) =>
      transcription(
        emu,
        { input_audio: audioJson(wav(tone(3, 440)), 'wav'), response_format: 'verbose_json', timestamp_granularities: ['word'] },
        emu.keys.standard,
      ),
  },
  {
    operation: 'audio.transcriptions',
    name: 'a form',
    status: 200,
    run: async (emu) => upload(emu, await form({ model: STT_MODEL, response_format: 'verbose_json' }, [{ name: 'a.wav', bytes: wav(tone(2, 440)) }])),
  },
  {
    operation: 'audio.transcriptions',
    name: 'bad base64',
    status: 400,
    run: (emu) => transcription(emu, { input_audio: { data: '!!', format: 'wav' } }, emu.keys.standard),
  },
  {
    operation: 'audio.transcriptions',
    name: 'an unknown format',
    status: 400,
    run: (emu) => transcription(emu, { input_audio: { data: 'AAAA', format: 'aac' } }, emu.keys.standard),
  },
  { operation: 'audio.transcriptions', name: 'a form without a file', status: 400, run: async (emu) => upload(emu, await form({ model: STT_MODEL })) },
  {
    operation: 'audio.transcriptions',
    name: 'an upload over 25 MB',
    status: 413,
    run: async (emu) => upload(emu, await form({ model: STT_MODEL }, [{ name: 'big.pcm', bytes: Buffer.alloc(25 * 1024 * 1024 + 2) }])),
  },
  {
    operation: 'audio.transcriptions',
    name: 'no credits',
    status: 402,
    run: async (emu) => transcription(emu, { input_audio: audioJson(wav(tone(1, 440)), 'wav') }, await brokeAccountKey(emu)),
  },
  ...authCases('audio.transcriptions', (emu, key) => transcription(emu, { input_audio: { data: 'AAAA', format: 'pcm' } }, key), 'standard'),
]
