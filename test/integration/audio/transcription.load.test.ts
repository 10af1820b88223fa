// Transcripts written in the media worker threads, over HTTP: a tiny FLAC whose header claims four hours
// (the longest audio taken) makes 36,000 words of text, and with verbose_json 3 MB of timeline; several
// at once, as json and as verbose_json with words, beside another account's heartbeat. The answers are
// what the transcript module writes for that audio, wherever it was written.
import { createHash } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadFaker } from '../../../src/emulator/core/faker.ts'
import { createRng } from '../../../src/emulator/core/rng.ts'
import { MAX_AUDIO_SECONDS } from '../../../src/emulator/media/audio-probe.ts'
import { generatedText, wordsFor } from '../../../src/emulator/media/transcript.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'
import { anotherAccountKey, withHeartbeat } from '../../helpers/heartbeat.ts'
import { postManyFromChild } from '../../helpers/post-many.ts'
import { flacHeader, STT } from './audio-helpers.ts'

const RATE = 48_000
/** Four hours of FLAC, as its header says: 42 bytes, another audio (another hash) for each salt. */
const fourHours = (salt: number): Buffer => flacHeader(RATE, RATE * MAX_AUDIO_SECONDS, salt)

const transcribe = async (url: string, key: string, audio: Buffer, format: Record<string, unknown>) => {
  const res = await fetch(`${url}/api/v1/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: STT, input_audio: { data: audio.toString('base64'), format: 'flac' }, ...format }),
  })
  return { status: res.status, length: Number(res.headers.get('content-length')), text: await res.text() }
}

describe('transcripts in the media workers', () => {
  it(
    'several four-hour transcripts at once hold another account’s light requests for less than 500 ms, and say what the transcript module writes',
    { timeout: 120_000 },
    async () => {
      const emu = await listeningEmulator()
      const other = await anotherAccountKey(emu.url)
      const verbose = { response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'] }
      const { result, heartbeat } = await withHeartbeat(
        emu.url,
        () =>
          Promise.all([
            ...[1, 2, 3].map((salt) => transcribe(emu.url, emu.keys.standard, fourHours(salt), {})),
            ...[1, 2, 3].map((salt) => transcribe(emu.url, emu.keys.standard, fourHours(salt), verbose)),
          ]),
        {},
        { key: other },
      )
      expect(heartbeat.failures).toEqual([])
      expect(heartbeat.slowestMs).toBeLessThan(500)

      const makeFaker = await loadFaker()
      const words = wordsFor(MAX_AUDIO_SECONDS)
      expect(words).toBe(36_000)
      for (const [i, answer] of result.entries()) {
        expect(answer.status).toBe(200)
        expect(answer.length).toBe(Buffer.byteLength(answer.text))
        const body = JSON.parse(answer.text)
        const salt = (i % 3) + 1
        expect(body.text).toBe(generatedText(makeFaker, createRng(1, `stt:${STT}:${createHash('sha256').update(fourHours(salt)).digest('hex')}`), words))
        expect(body.usage).toMatchObject({ seconds: MAX_AUDIO_SECONDS, input_tokens: MAX_AUDIO_SECONDS * 10 })
        if (i < 3) {
          expect(Object.keys(body)).toEqual(['text', 'usage'])
          continue
        }
        // 3 MB of timeline: every word, and segments of at most 30 s covering the four hours.
        expect(answer.length).toBeGreaterThan(2_900_000)
        expect(body).toMatchObject({ task: 'transcribe', language: 'english', duration: MAX_AUDIO_SECONDS })
        expect(body.words).toHaveLength(words)
        expect(body.segments.map((s: { text: string }) => s.text).join(' ')).toBe(body.text)
        expect(body.segments.at(-1).end).toBe(MAX_AUDIO_SECONDS)
        for (const segment of body.segments) expect(segment.end - segment.start).toBeLessThanOrEqual(30)
        // The json answer of the same audio says the same text, with the same usage.
        expect(body.text).toBe(JSON.parse(result[i - 3]!.text).text)
        expect(body.usage).toEqual(JSON.parse(result[i - 3]!.text).usage)
      }
    },
  )
})

describe('base64 audio at the JSON bound', () => {
  it('is checked and read beside another account’s heartbeat that waits less than 500 ms', { timeout: 60_000 }, async () => {
    const emu = await listeningEmulator()
    const other = await anotherAccountKey(emu.url)
    // 30 MB of FLAC as JSON base64 (40 MB of text), its header saying 30 seconds: most of the bytes are its frames.
    const audio = Buffer.concat([flacHeader(RATE, RATE * 30, 7), Buffer.alloc(30 * 1024 * 1024, 1)])
    const bodyPath = join(mkdtempSync(join(tmpdir(), 'stt-json-')), 'body.json')
    writeFileSync(bodyPath, JSON.stringify({ model: STT, input_audio: { data: audio.toString('base64'), format: 'flac' } }))
    // Sent from a process of its own: the client's work of writing 40 MB is not the emulator's.
    const { result, heartbeat } = await withHeartbeat(
      emu.url,
      () =>
        postManyFromChild({
          url: `${emu.url}/api/v1/audio/transcriptions`,
          headers: { authorization: `Bearer ${emu.keys.standard}`, 'content-type': 'application/json' },
          bodyPath,
          count: 2,
        }),
      {},
      { key: other },
    )
    expect(heartbeat.failures).toEqual([])
    expect(heartbeat.slowestMs).toBeLessThan(500)
    for (const answer of result) {
      expect(answer.status).toBe(200)
      expect(answer.body.usage).toMatchObject({ seconds: 30 })
    }
  })
})
