// The media jobs as the worker runs them: a WAV written in slices is, byte for byte, the samples
// synthesized whole with the text's tag, behind the header wavefile writes; each slice reported is
// final when reported; and the small jobs that stay in the emulator's thread are the small ones.
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { perform, runsInline, speechFileBytes, writeSpeechWav, type SpeechJob } from '../../../src/emulator/media/jobs.ts'
import { embedText, extractText, synthesize } from '../../../src/emulator/media/synth.ts'

const { WaveFile } = createRequire(import.meta.url)('wavefile') as typeof import('wavefile')

const job = (text: string, speed = 1): SpeechJob => ({
  kind: 'speech',
  text,
  voiceKey: '1\u0000openai/gpt-4o-mini-tts\u0000alloy',
  styleKey: '',
  speed,
  format: 'wav',
})

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** The WAV as the endpoint made it before the worker: synthesized whole, tagged, written by wavefile. */
function wholeWav(text: string, speed = 1): Buffer {
  const samples = synthesize(job(text, speed))
  embedText(samples, text)
  const wav = new WaveFile()
  wav.fromScratch(1, 24_000, '16', samples)
  return Buffer.from(wav.toBuffer())
}

describe('a WAV written in slices', () => {
  it.each([
    ['a sentence', 'The quick brown fox jumps over the lazy dog. Does it?', 1],
    ['a longer text, slowly', 'Words after words, said slowly. '.repeat(12), 0.5],
    ['a text whose tag is longer than its sound', 'Hi', 4],
    ['text beyond the basic plane', 'Smile 😀, café, naïve ... 完成', 1],
  ])('is the whole WAV, byte for byte: %s', (_name, text, speed) => {
    const file = new Uint8Array(speechFileBytes(job(text, speed)))
    const reports: number[] = []
    // What is final at each report (its hash): it must not change afterwards.
    const snapshots: Array<{ ready: number; hash: string }> = []
    writeSpeechWav(job(text, speed), file, (ready) => {
      reports.push(ready)
      snapshots.push({ ready, hash: sha(file.subarray(0, ready)) })
    })
    expect(sha(file)).toBe(sha(wholeWav(text, speed)))
    expect(reports.at(-1)).toBe(file.length)
    expect(reports).toEqual([...reports].sort((a, b) => a - b))
    for (const { ready, hash } of snapshots) expect(sha(file.subarray(0, ready))).toBe(hash)
  })

  it('reports in slices, the first only once the text’s tag is in it', () => {
    const text = 'A text long enough to be sent in several slices. '.repeat(40)
    const file = new Uint8Array(speechFileBytes(job(text)))
    const reports: number[] = []
    writeSpeechWav(job(text), file, (ready) => reports.push(ready))
    expect(reports.length).toBeGreaterThan(3)
    const first = new Int16Array(file.buffer, 44, (reports[0]! - 44) / 2)
    expect(extractText((i) => first[i]!, first.length)).toBe(text)
  })

  it('is the same made in memory shared with the emulator’s thread', async () => {
    const text = 'Shared or not, the same bytes.'
    let shared: Uint8Array | undefined
    await perform(job(text), (file) => (shared = file), true)
    expect(shared!.buffer).toBeInstanceOf(SharedArrayBuffer)
    expect(sha(shared!)).toBe(sha(wholeWav(text)))
  })
})

describe('jobs that stay in the emulator’s thread', () => {
  it('are the ones smaller than a thread hop', () => {
    const images = (side: number, count = 1) =>
      runsInline({ kind: 'images', seed: 1, identities: Array(count).fill('x'), width: side, height: side, transparent: false, format: 'png', jpegQuality: 90 })
    expect(images(64)).toBe(true)
    expect(images(64, 2)).toBe(false)
    expect(images(1024)).toBe(false)
    expect(runsInline(job('!'))).toBe(true)
    expect(runsInline(job('A sentence of speech.'))).toBe(false)
    const audio = (bytes: number) => runsInline({ kind: 'audio-probe', audio: new Uint8Array(bytes), format: 'wav', field: 'file', fixes: {} as never })
    expect(audio(64 * 1024)).toBe(true)
    expect(audio(64 * 1024 + 1)).toBe(false)
    const sniff = (bytes: number) => runsInline({ kind: 'file-sniff', bytes: new Uint8Array(bytes) })
    expect(sniff(64 * 1024)).toBe(true)
    expect(sniff(64 * 1024 + 1)).toBe(false)
    // A transcript by its text's length: the speech it heard, or six characters a word drawn (2.5 words a second).
    const transcript = (said: string | null, seconds: number) =>
      runsInline({ kind: 'transcript', said, seconds, seed: 1, model: 'm', digest: 'd', timeline: { temperature: 0, words: true } })
    expect(transcript('x'.repeat(256), 3600)).toBe(true)
    expect(transcript('x'.repeat(257), 1)).toBe(false)
    expect(transcript(null, 16)).toBe(true)
    expect(transcript(null, 17.4)).toBe(false)
    expect(transcript(null, 4 * 3600)).toBe(false)
  })
})
