// Speech without a voice model: a deterministic babble of tones that follows the text. Each word is
// a run of syllables (about three characters each) sung on a pitch drawn from a hash of the word, the
// voice and the instructions; spaces and punctuation are silence, a question rises, a sentence falls.
// The voice decides the base pitch and the timbre (the strength of the first harmonics), so two voices
// sound apart. Every character lasts 1/15 s at speed 1, so the length follows the text.
//
// The text itself is written into the least significant bit of the first samples (a tag of a few
// hundred bits, inaudible at 16 bits), so a transcription of this PCM, or of a WAV wrapped around it,
// gives the text back. Only table lookups, integer hashing and IEEE arithmetic: the same request gives
// the same samples on every machine.
import { sha256Hex } from '../core/rng.ts'

/** 32 bits of the SHA-256 of a text (and a salt). */
const hash32 = (text: string, salt = 0): number => Number.parseInt(sha256Hex(`${salt}\u0000${text}`).slice(0, 8), 16)

/** Samples per second of every sound the emulator makes (OpenAI's `pcm`: 24 kHz, 16-bit, mono). */
export const SAMPLE_RATE = 24_000
/** Characters spoken per second at speed 1 (about 150 words a minute). */
export const CHARS_PER_SECOND = 15

const TABLE_SIZE = 4096
const PEAK = 0.32 * 32767
const EDGE_SECONDS = 0.012
/** Syllables are this many characters of a word. */
const SYLLABLE_CHARS = 3

export interface SpeechPlan {
  text: string
  /** Seeds the voice: the emulator's seed, the model and the voice name. */
  voiceKey: string
  /** Seeds the melody beside the words: the instructions (how to say it). */
  styleKey: string
  speed: number
}

/** Samples a text takes at a speed (at least one). */
export function speechSamples(text: string, speed: number): number {
  return Math.max(1, Math.round((codePoints(text) * SAMPLE_RATE) / (CHARS_PER_SECOND * speed)))
}

export const codePoints = (text: string): number => {
  let n = 0
  for (const _ of text) n++
  return n
}

/** One period of the voice's waveform: a few harmonics whose weights the voice picks. */
function voiceTable(hash: number): { table: Float64Array; base: number } {
  const weights = [1, 0.2 + ((hash >>> 4) & 15) / 25, 0.1 + ((hash >>> 8) & 15) / 40, ((hash >>> 12) & 15) / 60, ((hash >>> 16) & 15) / 90]
  const total = weights.reduce((a, b) => a + b, 0)
  const table = new Float64Array(TABLE_SIZE + 1)
  for (let i = 0; i <= TABLE_SIZE; i++) {
    const phase = (2 * Math.PI * i) / TABLE_SIZE
    let v = 0
    for (let k = 0; k < weights.length; k++) v += weights[k]! * Math.sin((k + 1) * phase)
    table[i] = v / total
  }
  // 95 to 255 Hz: from a low voice to a high one.
  return { table, base: 95 + ((hash >>> 20) % 161) }
}

type Run = { kind: 'word' | 'pause'; start: number; chars: number; word: string; question: boolean; last: boolean }

/** Words and the silences between them, by character position. */
function runsOf(text: string): Run[] {
  const runs: Run[] = []
  const chars = [...text]
  let i = 0
  while (i < chars.length) {
    const isWord = /[\p{L}\p{N}']/u.test(chars[i]!)
    let j = i + 1
    while (j < chars.length && /[\p{L}\p{N}']/u.test(chars[j]!) === isWord) j++
    const after = chars.slice(j, j + 3).join('')
    runs.push({
      kind: isWord ? 'word' : 'pause',
      start: i,
      chars: j - i,
      word: chars.slice(i, j).join('').toLowerCase(),
      question: after.startsWith('?'),
      last: /^[.!]/.test(after),
    })
    i = j
  }
  return runs
}

/**
 * The samples of a text, 16-bit, written into `samples` (a new array by default). `final(n)` is told
 * as the first n samples are done for good (words are written in order), so a caller can send them
 * before the rest are made.
 */
export function synthesize(
  plan: SpeechPlan,
  samples: Int16Array = new Int16Array(speechSamples(plan.text, plan.speed)),
  final: (samples: number) => void = () => {},
): Int16Array {
  const total = samples.length
  const chars = codePoints(plan.text)
  const perChar = total / Math.max(1, chars)
  const voiceHash = hash32(plan.voiceKey)
  const { table, base } = voiceTable(voiceHash)
  const styleHash = hash32(plan.styleKey, voiceHash)
  const edge = Math.max(1, Math.round(EDGE_SECONDS * SAMPLE_RATE))
  let phase = 0
  for (const run of runsOf(plan.text)) {
    if (run.kind === 'pause') continue
    final(Math.min(total, Math.round(run.start * perChar)))
    const wordHash = hash32(run.word, styleHash)
    // The word's pitch: within five semitones of the voice's base; its line rises for a question, falls at an end.
    const f0 = base * 2 ** ((((wordHash >>> 3) % 11) - 5) / 12)
    const glide = run.question ? 4 : run.last ? -3 : (((wordHash >>> 9) % 5) - 2) * 0.5
    const syllables = Math.max(1, Math.round(run.chars / SYLLABLE_CHARS))
    const from = Math.round(run.start * perChar)
    const to = Math.min(total, Math.round((run.start + run.chars) * perChar))
    const length = to - from
    if (length <= 0) continue
    const perSyllable = length / syllables
    for (let s = 0; s < syllables; s++) {
      const a = from + Math.round(s * perSyllable)
      const b = from + Math.round((s + 1) * perSyllable)
      const n = b - a
      // Each syllable a little off the word's pitch, and a little louder or softer.
      const step = 2 ** (((((wordHash >>> (s % 24)) + s * 7) % 5) - 2) / 24)
      const loud = PEAK * (0.75 + ((wordHash >>> ((s * 3) % 24)) & 7) / 28)
      const ramp = Math.min(edge, Math.floor(n / 2))
      // The glide as a phase increment that grows by the same ratio every sample (no power per sample).
      let increment = (f0 * step * 2 ** ((glide * (a - from)) / length / 12) * TABLE_SIZE) / SAMPLE_RATE
      const growth = 2 ** (glide / length / 12)
      for (let i = 0; i < n; i++) {
        phase += increment
        increment *= growth
        if (phase >= TABLE_SIZE) phase -= TABLE_SIZE
        const at = phase | 0
        const wave = table[at]! + (table[at + 1]! - table[at]!) * (phase - at)
        // Raised-cosine edges: no clicks between syllables.
        const envelope = i < ramp ? 0.5 - 0.5 * Math.cos((Math.PI * i) / ramp) : i >= n - ramp ? 0.5 - 0.5 * Math.cos((Math.PI * (n - i)) / ramp) : 1
        samples[a + i] = Math.round(wave * envelope * loud)
      }
    }
  }
  final(total)
  return samples
}

// ---- The text in the low bits -------------------------------------------------------------------

const MAGIC = 0x4d474531 // "MGE1"
/** At most this many bytes of text are written (the speech endpoint's input bound is well below it). */
const MAX_TAG_TEXT = 65_536

const checksum = (bytes: Uint8Array): number => {
  let h = 0x811c9dc5
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0
  return h
}

/** How many of the first samples embedText writes the text into (0 when it writes none: a text too long, or too few samples). */
export function embeddedSamples(text: string, samples: number): number {
  const bits = (12 + Buffer.byteLength(text, 'utf8')) * 8
  return Buffer.byteLength(text, 'utf8') > MAX_TAG_TEXT || bits > samples ? 0 : bits
}

/** Writes `text` into the least significant bits of the first samples (when they are enough). */
export function embedText(samples: Int16Array, text: string): void {
  const bytes = new TextEncoder().encode(text)
  if (bytes.length > MAX_TAG_TEXT) return
  const tag = new Uint8Array(12 + bytes.length)
  const view = new DataView(tag.buffer)
  view.setUint32(0, MAGIC)
  view.setUint32(4, bytes.length)
  tag.set(bytes, 8)
  view.setUint32(8 + bytes.length, checksum(bytes))
  if (tag.length * 8 > samples.length) return
  for (let bit = 0; bit < tag.length * 8; bit++) {
    const value = (tag[bit >>> 3]! >>> (7 - (bit & 7))) & 1
    samples[bit] = (samples[bit]! & ~1) | value
  }
}

/**
 * The text embedded in 16-bit samples, or null. `sampleAt(i)` reads the i-th sample of one channel,
 * `count` is how many there are. Reads only as many samples as the tag says it has.
 */
export function extractText(sampleAt: (i: number) => number, count: number): string | null {
  const readBytes = (offset: number, length: number): Uint8Array | null => {
    if ((offset + length) * 8 > count) return null
    const out = new Uint8Array(length)
    for (let i = 0; i < length; i++) {
      let byte = 0
      for (let bit = 0; bit < 8; bit++) byte = (byte << 1) | (sampleAt((offset + i) * 8 + bit) & 1)
      out[i] = byte
    }
    return out
  }
  const head = readBytes(0, 8)
  if (!head) return null
  const view = new DataView(head.buffer)
  if (view.getUint32(0) !== MAGIC) return null
  const length = view.getUint32(4)
  if (length > MAX_TAG_TEXT) return null
  const body = readBytes(8, length + 4)
  if (!body) return null
  const bytes = body.subarray(0, length)
  if (new DataView(body.buffer).getUint32(length) !== checksum(bytes)) return null
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}
