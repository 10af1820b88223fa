// Speech made in the media worker threads, over HTTP: the attack (three 28 MB WAVs at once:
// 4,096 characters at speed 0.46) beside another account's heartbeat; a long WAV or PCM answer is sent
// as the worker writes it, with its Content-Length up front, and its bytes are those the codecs make
// (a WAV as wavefile writes it, the text's tag in the low bits); the journal still keeps the whole file.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { embedText, speechSamples, synthesize } from '../../../src/emulator/media/synth.ts'
import { listeningEmulator } from '../../helpers/emulator.ts'
import { anotherAccountKey, withHeartbeat } from '../../helpers/heartbeat.ts'
import { TTS, WaveFile } from './audio-helpers.ts'

const LONG = Array.from({ length: 400 }, (_, i) => `Sentence ${i} is said slowly.`)
  .join(' ')
  .slice(0, 4096)
const SPEED = 0.46

const speak = (url: string, key: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/v1/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: TTS, voice: 'alloy', ...body }),
  })

/** The WAV the request asks for, made here with the synthesizer and wavefile (as the endpoint made it before the worker). */
function expectedWav(seed: number): Buffer {
  const samples = synthesize({ text: LONG, voiceKey: `${seed}\u0000${TTS}\u0000alloy`, styleKey: '', speed: SPEED })
  embedText(samples, LONG)
  const wav = new WaveFile()
  wav.fromScratch(1, 24_000, '16', samples)
  return Buffer.from(wav.toBuffer())
}

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

describe('speech in the media workers', () => {
  it('three 28 MB WAVs at once hold another account’s light requests for less than 500 ms, and are the codecs’ bytes', { timeout: 120_000 }, async () => {
    const emu = await listeningEmulator()
    const other = await anotherAccountKey(emu.url)
    const bytes = 44 + speechSamples(LONG, SPEED) * 2
    expect(bytes).toBeGreaterThan(28_000_000)
    const { result, heartbeat } = await withHeartbeat(
      emu.url,
      () =>
        Promise.all(
          Array.from({ length: 3 }, async () => {
            const res = await speak(emu.url, emu.keys.standard, { input: LONG, speed: SPEED, response_format: 'wav' })
            // Hashed as it arrives: the test's own process holds no 28 MB copies beside the emulator.
            const hash = createHash('sha256')
            let received = 0
            for await (const chunk of res.body!) {
              hash.update(chunk)
              received += chunk.length
            }
            return { status: res.status, length: res.headers.get('content-length'), received, sha: hash.digest('hex') }
          }),
        ),
      {},
      { key: other },
    )
    expect(heartbeat.failures).toEqual([])
    expect(heartbeat.slowestMs).toBeLessThan(500)
    const expected = sha(expectedWav(1))
    for (const answer of result) {
      expect(answer.status).toBe(200)
      expect(Number(answer.length)).toBe(bytes)
      expect(answer.received).toBe(bytes)
      expect(answer.sha).toBe(expected)
    }
  })

  it('sends a long pcm as the samples of the same WAV, and the journal keeps that WAV whole for the inspector', { timeout: 60_000 }, async () => {
    const emu = await listeningEmulator()
    const res = await speak(emu.url, emu.keys.standard, { input: LONG, speed: SPEED })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/pcm')
    const pcm = Buffer.from(await res.arrayBuffer())
    const wav = expectedWav(1)
    expect(Number(res.headers.get('content-length'))).toBe(wav.length - 44)
    expect(sha(pcm)).toBe(sha(wav.subarray(44)))
    const [entry] = ((await (await fetch(`${emu.url}/_emulator/api/journal?operation=audio.speech`)).json()) as { data: Array<{ id: number; media: unknown }> })
      .data
    expect(entry!.media).toEqual([{ index: 0, content_type: 'audio/wav', bytes: wav.length, kept: true }])
    const kept = await fetch(`${emu.url}/_emulator/api/journal/${entry!.id}/media/0`)
    expect(sha(Buffer.from(await kept.arrayBuffer()))).toBe(sha(wav))
  })

  it('gives a client that reads slowly every byte, in order', { timeout: 60_000 }, async () => {
    const emu = await listeningEmulator()
    const res = await speak(emu.url, emu.keys.standard, { input: LONG.slice(0, 2000), speed: SPEED, response_format: 'wav' })
    const reader = res.body!.getReader()
    const parts: Uint8Array[] = []
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      parts.push(read.value)
      // The first few slices taken slowly: the server waits for the socket rather than piling bytes up.
      if (parts.length < 5) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const body = Buffer.concat(parts)
    const samples = synthesize({ text: LONG.slice(0, 2000), voiceKey: `1\u0000${TTS}\u0000alloy`, styleKey: '', speed: SPEED })
    embedText(samples, LONG.slice(0, 2000))
    expect(body.length).toBe(44 + samples.length * 2)
    expect(sha(body.subarray(44))).toBe(sha(new Uint8Array(samples.buffer)))
  })
})
