// What a transcription says, and when: the text of audio the emulator did not make is sentences
// drawn from a faker seeded by the audio's hash, as many words as the audio is long (150 words a
// minute); segments and words are timed by where their characters fall in the text, spread evenly over
// the audio's length (for the emulator's own speech, where each character lasts the same, the timing
// is exact). Four hours of audio are 36,000 words, a third of a second to write and 3 MB of timeline
// as JSON: the transcript is a media job (jobs.ts), written in a worker thread unless it is short.
import { loadFaker, type MakeFaker } from '../core/faker.ts'
import { createRng, type Rng } from '../core/rng.ts'
import { countTokens, loadTokenizer, tokenizerNow } from '../core/tokens.ts'

/** Words spoken per second (150 a minute). */
export const WORDS_PER_SECOND = 2.5
/** A segment lasts at most this long (Whisper's window); a longer sentence is cut at a word. */
const MAX_SEGMENT_SECONDS = 30

export interface Segment {
  id: number
  seek: number
  start: number
  end: number
  text: string
  tokens: number[]
  temperature: number
  avg_logprob: number
  compression_ratio: number
  no_speech_prob: number
}

export interface Word {
  word: string
  start: number
  end: number
}

/** Words a transcript of audio this long has: none for a blip under 0.3 s, at least one otherwise. */
export const wordsFor = (seconds: number): number => (seconds < 0.3 ? 0 : Math.max(1, Math.round(seconds * WORDS_PER_SECOND)))

/** `count` words of sentences, the last one closed with a full stop. */
export function generatedText(makeFaker: MakeFaker, rng: Rng, count: number): string {
  if (count === 0) return ''
  const faker = makeFaker(rng)
  const words: string[] = []
  while (words.length < count) {
    const sentence = rng.chance(0.75) ? faker.hacker.phrase() : `${faker.company.catchPhrase()}.`
    words.push(...sentence.split(/\s+/).filter(Boolean))
  }
  words.length = count
  const last = words[count - 1]!
  if (!/[.!?]$/.test(last)) words[count - 1] = `${last.replace(/[,;:]+$/, '')}.`
  return words.join(' ')
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000

/** A sentence (or a word run of one) by character offsets, code points. */
interface Span {
  from: number
  to: number
}

/** Words of a text by code-point offsets. */
function wordSpans(chars: readonly string[]): Span[] {
  const spans: Span[] = []
  for (let i = 0; i < chars.length;) {
    if (/\s/.test(chars[i]!)) {
      i++
      continue
    }
    const from = i
    while (i < chars.length && !/\s/.test(chars[i]!)) i++
    spans.push({ from, to: i })
  }
  return spans
}

/**
 * The segments (sentences, none longer than 30 s) and words of a text said over `seconds`, each with
 * its start and end. `rng` draws each segment's confidence figures.
 */
export function timeline(text: string, seconds: number, temperature: number, rng: Rng): { segments: Segment[]; words: Word[] } {
  const chars = [...text]
  const at = (offset: number): number => round3((offset / Math.max(1, chars.length)) * seconds)
  const spans = wordSpans(chars)
  const words: Word[] = []
  for (const span of spans) {
    // Whisper's words carry no punctuation.
    const word = chars
      .slice(span.from, span.to)
      .join('')
      .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    if (word !== '') words.push({ word, start: at(span.from), end: at(span.to) })
  }
  const segments: Segment[] = []
  const encoder = tokenizerNow()
  let first = 0
  const close = (last: number): void => {
    const from = spans[first]!.from
    const to = spans[last]!.to
    const segmentText = chars.slice(from, to).join('')
    const start = at(from)
    segments.push({
      id: segments.length,
      seek: Math.floor(start / MAX_SEGMENT_SECONDS) * MAX_SEGMENT_SECONDS * 100,
      start,
      end: at(to),
      text: segmentText,
      tokens: encoder.encode(segmentText),
      temperature,
      avg_logprob: round3(-0.1 - rng.next() * 0.35),
      compression_ratio: round3(1.1 + rng.next() * 0.5),
      no_speech_prob: round3(rng.next() * 0.04),
    })
    first = last + 1
  }
  spans.forEach((span, i) => {
    const ends = /[.!?]$/.test(chars[span.to - 1]!)
    const next = spans[i + 1]
    const tooLong = next !== undefined && at(next.to) - at(spans[first]!.from) > MAX_SEGMENT_SECONDS
    if (ends || tooLong || next === undefined) close(i)
  })
  return { segments, words }
}

/** A transcription's text and, for verbose_json, its timeline, from what the probe read of the audio: plain data. */
export interface TranscriptJob {
  kind: 'transcript'
  /** The text the audio is known to say (the emulator's own speech; '' for silence); null: sentences drawn for it. */
  said: string | null
  /** The audio's length: how many words are drawn, and the timeline's scale. */
  seconds: number
  /** What the drawn text and the segments' figures are seeded by: the emulator's seed, the model and the audio's SHA-256. */
  seed: number
  model: string
  digest: string
  /** verbose_json: the segments, and the words when asked; null for json. */
  timeline: { temperature: number; words: boolean } | null
}

export interface Transcript {
  text: string
  /** The text's cl100k tokens. */
  tokens: number
  /** The segments and words as JSON arrays in UTF-8 (as the answer's schema writes them), or null when not asked. */
  segments: Uint8Array | null
  words: Uint8Array | null
}

/** Characters a drawn word takes, its space included (the faker's sentences average six). */
const CHARS_PER_WORD = 6

/** About how long a job's text is, to tell a short one from a long one before it is written. */
export const transcriptChars = (job: TranscriptJob): number => job.said?.length ?? wordsFor(job.seconds) * CHARS_PER_WORD

export async function writeTranscript(job: TranscriptJob): Promise<Transcript> {
  const [makeFaker] = await Promise.all([loadFaker(), loadTokenizer()])
  const text = job.said ?? generatedText(makeFaker, createRng(job.seed, `stt:${job.model}:${job.digest}`), wordsFor(job.seconds))
  const transcript: Transcript = { text, tokens: countTokens(text), segments: null, words: null }
  if (job.timeline === null) return transcript
  const { segments, words } = timeline(text, job.seconds, job.timeline.temperature, createRng(job.seed, `stt-segments:${job.model}:${job.digest}`))
  // Their keys are in the schema's order already: the JSON is what the route's serializer would write,
  // as bytes, which leave a worker without a copy and are sent as they are.
  const utf8 = new TextEncoder()
  transcript.segments = utf8.encode(JSON.stringify(segments))
  if (job.timeline.words) transcript.words = utf8.encode(JSON.stringify(words))
  return transcript
}
