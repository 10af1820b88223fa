// A transcription's answer is written by hand around the timeline the media job wrote as JSON
// (audio-transcription.service.ts: answerBody): byte for byte what the route's schema would serialize from the
// same answer as objects, for json and verbose_json, with and without words, for text that needs escapes.
import fastJson from 'fast-json-stringify'
import { describe, expect, it } from 'vitest'
import { writeTranscript, type TranscriptJob } from '../../../src/emulator/media/transcript.ts'
import { TranscriptionResult } from '../../../src/emulator/modules/audio/audio.schemas.ts'
import { answerBody } from '../../../src/emulator/modules/audio/audio-transcription.service.ts'

const serialize = fastJson(TranscriptionResult)

const job = (said: string | null, seconds: number, timeline: TranscriptJob['timeline']): TranscriptJob => ({
  kind: 'transcript',
  said,
  seconds,
  seed: 1,
  model: 'openai/whisper-large-v3',
  digest: 'ab'.repeat(32),
  timeline,
})

const usage = { seconds: 12.345, input_tokens: 124, output_tokens: 31, total_tokens: 155, cost: 0.0012345 }
const parsed = (json: Uint8Array | null): unknown => (json === null ? undefined : JSON.parse(Buffer.from(json).toString('utf8')))

describe('a transcription answer written around the job’s JSON', () => {
  it.each([
    ['drawn sentences', null, 95.5],
    ['the emulator’s own speech', 'Meet me at the old mill at noon. Bring the map, and come alone!', 4.2],
    ['text with quotes, backslashes, control characters and other planes', 'Say "hi" \\ then\ttab, line\nbreak; café 😀 完成? Yes!', 3],
    ['silence', '', 2],
  ])('is what the schema serializes: %s', async (_name, said, seconds) => {
    for (const timeline of [null, { temperature: 0, words: false }, { temperature: 0.3, words: true }]) {
      const transcript = await writeTranscript(job(said, seconds, timeline))
      const verbose = timeline === null ? null : { language: 'english', duration: seconds }
      const body = answerBody(transcript, usage, verbose)
      const bytes = Buffer.concat(await body.toArray())
      const answer = {
        text: transcript.text,
        usage,
        ...(verbose && { task: 'transcribe' as const, language: verbose.language, duration: verbose.duration, segments: parsed(transcript.segments) }),
        ...(transcript.words !== null && { words: parsed(transcript.words) }),
      }
      expect(bytes.toString('utf8')).toBe(serialize(answer as TranscriptionResult))
      expect(body.byteLength).toBe(bytes.length)
    }
  })
})
