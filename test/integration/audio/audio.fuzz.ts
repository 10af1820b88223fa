// The fuzzed operations of speech and transcriptions: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { PCM, type FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 67,
    method: 'POST',
    path: '/api/v1/audio/speech',
    key: 'standard',
    body: { model: 'openai/gpt-4o-mini-tts', input: 'Hello there.', voice: 'nova', response_format: 'mp3', speed: 2 },
  },
  {
    place: 68,
    method: 'POST',
    path: '/api/v1/audio/transcriptions',
    key: 'standard',
    body: {
      model: 'openai/whisper-large-v3',
      input_audio: { data: Buffer.alloc(4800, 1).toString('base64'), format: 'pcm' },
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
      language: 'en',
    },
    media: [['input_audio', 'data']],
  },
  {
    place: 69,
    method: 'POST',
    path: '/api/v1/audio/transcriptions',
    key: 'standard',
    form: {
      fields: { model: 'openai/whisper-large-v3', response_format: 'verbose_json', 'timestamp_granularities[]': 'word', language: 'en' },
      files: [{ field: 'file', name: 'speech.pcm', type: 'application/octet-stream', bytes: PCM }],
    },
  },
]
