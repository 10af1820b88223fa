// What a transcription needs to know of its audio: its format (checked against what the request says),
// its length in seconds, whether it is digital silence, and the text the emulator's own speech endpoint
// embedded in it. Containers are read from their headers, exactly: WAV (fmt and data chunks), raw PCM
// (16-bit mono at 24 kHz, the speech endpoint's `pcm`), MP3 (every frame header walked), FLAC
// (STREAMINFO), Ogg (the last page's granule position, Opus or Vorbis) and M4A/MP4 (the movie header).
// Each read is linear in the bytes at most; a problem is a 400 naming the field the audio came in.
import { fieldError } from '../core/errors.ts'
import { id3Length, id3Text } from './id3.ts'
import { extractText, SAMPLE_RATE } from './synth.ts'

export const AUDIO_FORMATS = ['wav', 'pcm', 'mp3', 'flac', 'ogg', 'm4a'] as const
export type AudioFormat = (typeof AUDIO_FORMATS)[number]

/** Other names of the formats: extensions and the names clients use. */
const ALIASES: Record<string, AudioFormat> = {
  wav: 'wav',
  wave: 'wav',
  pcm: 'pcm',
  raw: 'pcm',
  mp3: 'mp3',
  mpeg: 'mp3',
  mpga: 'mp3',
  flac: 'flac',
  ogg: 'ogg',
  oga: 'ogg',
  opus: 'ogg',
  m4a: 'm4a',
  mp4: 'm4a',
}

const MIME_TYPES: Record<string, AudioFormat> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/pcm': 'pcm',
  'audio/l16': 'pcm',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mpga': 'mp3',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'video/mp4': 'm4a',
}

/** The format a name stands for (`MP3`, `opus`, `m4a`), or undefined. */
export const formatNamed = (name: string): AudioFormat | undefined => ALIASES[name.trim().toLowerCase()]

/** The format of an uploaded file, by its name's extension, else its content type; undefined when neither says. */
export function formatOfUpload(filename: string, mimetype: string): AudioFormat | undefined {
  const dot = filename.lastIndexOf('.')
  const byName = dot >= 0 ? formatNamed(filename.slice(dot + 1)) : undefined
  return byName ?? MIME_TYPES[mimetype.split(';')[0]!.trim().toLowerCase()]
}

export const FORMAT_LIST = 'wav, pcm, mp3, flac, ogg (Opus or Vorbis) and m4a'

/** Longer audio than this is refused: a header may claim any length, and the transcript follows it. */
export const MAX_AUDIO_SECONDS = 4 * 3600

export interface ProbedAudio {
  format: AudioFormat
  seconds: number
  /** The text the emulator's speech endpoint embedded, when the audio is its own. */
  embeddedText: string | null
  /** Digital silence throughout (16-bit PCM only; other formats are taken to hold sound). */
  silent: boolean
}

/** The container the first bytes show, for formats with a signature (raw PCM has none). */
export function sniff(bytes: Buffer): AudioFormat | 'webm' | undefined {
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') return 'wav'
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'fLaC') return 'flac'
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'OggS') return 'ogg'
  if (bytes.length >= 8 && bytes.toString('latin1', 4, 8) === 'ftyp') return 'm4a'
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'webm'
  const afterTag = id3Length(bytes)
  if (afterTag > 0) {
    if (bytes.length >= afterTag + 4 && bytes.toString('latin1', afterTag, afterTag + 4) === 'fLaC') return 'flac'
    return 'mp3'
  }
  if (confirmedMp3Frame(bytes, 0) !== null) return 'mp3'
  return undefined
}

/**
 * Reads `bytes` as `format`. `field` is where the audio came from (`input_audio.data`, `file`), and
 * `fix(format)` says how to name the format the bytes show instead, for the errors.
 */
export function probeAudio(bytes: Buffer, format: AudioFormat, field: string, fix: (format: AudioFormat) => string): ProbedAudio {
  if (bytes.length === 0) throw fieldError(field, 'must not be empty')
  const seen = sniff(bytes)
  if (seen !== undefined && seen !== format) {
    throw fieldError(
      field,
      seen === 'webm' ? `holds WebM audio, which the emulator cannot measure (it reads ${FORMAT_LIST})` : `holds ${seen} audio, not ${format}: ${fix(seen)}`,
    )
  }
  const probed = read(bytes, format, field)
  if (!Number.isFinite(probed.seconds) || probed.seconds <= 0) throw fieldError(field, `holds no audio (a ${format} stream of no length)`)
  if (probed.seconds > MAX_AUDIO_SECONDS)
    throw fieldError(field, `lasts ${Math.round(probed.seconds)} seconds, more than the ${MAX_AUDIO_SECONDS} one request may transcribe: split it`)
  return probed
}

function read(bytes: Buffer, format: AudioFormat, field: string): ProbedAudio {
  switch (format) {
    case 'wav':
      return readWav(bytes, field)
    case 'pcm':
      return readPcm(bytes, field)
    case 'mp3':
      return readMp3(bytes, field)
    case 'flac':
      return { format, seconds: readFlac(bytes, field), embeddedText: null, silent: false }
    case 'ogg':
      return { format, seconds: readOgg(bytes, field), embeddedText: null, silent: false }
    case 'm4a':
      return { format, seconds: readMp4(bytes, field), embeddedText: null, silent: false }
  }
}

/** Below this peak (about -54 dBFS) 16-bit audio is taken for silence. */
const SILENCE_PEAK = 64

/** The embedded text and whether it is silent, for 16-bit samples of one channel. */
function read16(sampleAt: (i: number) => number, count: number): { embeddedText: string | null; silent: boolean } {
  const embeddedText = extractText(sampleAt, count)
  let silent = embeddedText === null
  for (let i = 0; silent && i < count; i++) if (Math.abs(sampleAt(i)) >= SILENCE_PEAK) silent = false
  return { embeddedText, silent }
}

function readPcm(bytes: Buffer, field: string): ProbedAudio {
  if (bytes.length % 2 !== 0) throw fieldError(field, 'is not 16-bit PCM: its length is an odd number of bytes')
  const count = bytes.length / 2
  return { format: 'pcm', seconds: count / SAMPLE_RATE, ...read16((i) => bytes.readInt16LE(i * 2), count) }
}

function readWav(bytes: Buffer, field: string): ProbedAudio {
  const notWav = (why: string) => fieldError(field, `is not a readable WAV file: ${why}`)
  let fmt: { code: number; channels: number; rate: number; blockAlign: number; bits: number } | undefined
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('latin1', at, at + 4)
    const size = bytes.readUInt32LE(at + 4)
    const body = at + 8
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) throw notWav('its fmt chunk is too short')
      let code = bytes.readUInt16LE(body)
      // WAVE_FORMAT_EXTENSIBLE keeps the real format code at the head of its sub-format GUID.
      if (code === 0xfffe && size >= 26 && body + 26 <= bytes.length) code = bytes.readUInt16LE(body + 24)
      fmt = {
        code,
        channels: bytes.readUInt16LE(body + 2),
        rate: bytes.readUInt32LE(body + 4),
        blockAlign: bytes.readUInt16LE(body + 12),
        bits: bytes.readUInt16LE(body + 14),
      }
      if (fmt.channels === 0 || fmt.rate === 0 || fmt.blockAlign === 0) throw notWav('its fmt chunk has no channels, sample rate or block size')
    } else if (id === 'data') {
      if (!fmt) throw notWav('its data chunk comes before its fmt chunk')
      // A stream written before its length was known says 0 or 0xFFFFFFFF: the data runs to the end.
      const available = bytes.length - body
      const length = size === 0 || size > available ? available : size
      const frames = Math.floor(length / fmt.blockAlign)
      const seconds = frames / fmt.rate
      if (fmt.code !== 1 || fmt.bits !== 16) return { format: 'wav', seconds, embeddedText: null, silent: false }
      const stride = fmt.blockAlign
      return { format: 'wav', seconds, ...read16((i) => bytes.readInt16LE(body + i * stride), frames) }
    }
    at = body + size + (size & 1)
  }
  throw notWav(fmt ? 'it has no data chunk' : 'it has no fmt chunk')
}

// ---- MP3 -----------------------------------------------------------------------------------------

const MP3_BITRATES = {
  v1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
}
const MP3_RATES: Record<number, readonly number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] }

/** The frame at `at`: its length in bytes, samples and sample rate; null when no valid header is there. */
export function mp3Frame(bytes: Uint8Array, at: number): { length: number; samples: number; rate: number } | null {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return null
  const version = (bytes[at + 1]! >>> 3) & 3 // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = 4 - ((bytes[at + 1]! >>> 1) & 3) // 1, 2 or 3 (4: reserved)
  const bitrateIndex = bytes[at + 2]! >>> 4
  const rateIndex = (bytes[at + 2]! >>> 2) & 3
  if (version === 1 || layer === 4 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null
  const kbps = (version === 3 ? MP3_BITRATES.v1 : MP3_BITRATES.v2)[layer - 1]![bitrateIndex]!
  const rate = MP3_RATES[version]![rateIndex]!
  const padding = (bytes[at + 2]! >>> 1) & 1
  const bps = kbps * 1000
  if (layer === 1) return { length: (Math.floor((12 * bps) / rate) + padding) * 4, samples: 384, rate }
  const samples = layer === 2 || version === 3 ? 1152 : 576
  return { length: Math.floor(((samples / 8) * bps) / rate) + padding, samples, rate }
}

/**
 * A frame at `at` that the next one confirms (or the end of the bytes, or an ID3v1 tag): four bytes
 * of other data pass for a frame header now and then, two in a row at the right distance hardly ever.
 */
function confirmedMp3Frame(bytes: Buffer, at: number): ReturnType<typeof mp3Frame> {
  const frame = mp3Frame(bytes, at)
  if (frame === null) return null
  const next = at + frame.length
  if (next > bytes.length) return null
  return next === bytes.length || mp3Frame(bytes, next) !== null || bytes.toString('latin1', next, next + 3) === 'TAG' ? frame : null
}

function readMp3(bytes: Buffer, field: string): ProbedAudio {
  let seconds = 0
  let frames = 0
  // Frames one after another; anything between them (an ID3v1 tag, junk) is stepped over byte by
  // byte. Where the last frame ended, a valid header is believed; elsewhere the next frame must confirm it.
  let expected = -1
  for (let at = id3Length(bytes); at + 4 <= bytes.length;) {
    const found = at === expected ? mp3Frame(bytes, at) : confirmedMp3Frame(bytes, at)
    const frame = found !== null && at + found.length <= bytes.length ? found : null
    if (frame === null) {
      at++
      continue
    }
    seconds += frame.samples / frame.rate
    frames++
    at += frame.length
    expected = at
  }
  if (frames === 0) throw fieldError(field, 'is not MP3 audio: no MPEG audio frame was found in it')
  return { format: 'mp3', seconds, embeddedText: id3Text(bytes), silent: false }
}

// ---- FLAC, Ogg, MP4 ------------------------------------------------------------------------------

function readFlac(bytes: Buffer, field: string): number {
  const at = id3Length(bytes)
  // "fLaC", then the STREAMINFO block's 4-byte header and its 34 bytes.
  if (bytes.length < at + 8 + 34 || bytes.toString('latin1', at, at + 4) !== 'fLaC' || (bytes[at + 4]! & 0x7f) !== 0)
    throw fieldError(field, 'is not a readable FLAC file: it has no STREAMINFO block')
  const info = at + 8
  const rate = (bytes[info + 10]! << 12) | (bytes[info + 11]! << 4) | (bytes[info + 12]! >>> 4)
  const total = (bytes[info + 13]! & 0x0f) * 2 ** 32 + bytes.readUInt32BE(info + 14)
  if (rate === 0) throw fieldError(field, 'is not a readable FLAC file: its sample rate is 0')
  if (total === 0)
    throw fieldError(field, 'is a FLAC stream that does not say how many samples it holds (STREAMINFO total of 0): the emulator cannot measure it')
  return total / rate
}

function readOgg(bytes: Buffer, field: string): number {
  const notOgg = (why: string) => fieldError(field, `is not a readable Ogg file: ${why}`)
  if (bytes.length < 28) throw notOgg('it is shorter than one page')
  const packet = 27 + bytes[26]!
  if (bytes.length < packet + 20) throw notOgg('its first page is cut short')
  let rate: number
  let preSkip = 0
  if (bytes.toString('latin1', packet, packet + 8) === 'OpusHead') {
    rate = 48_000 // Opus granule positions count 48 kHz samples, whatever the input rate
    preSkip = bytes.readUInt16LE(packet + 10)
  } else if (bytes[packet] === 1 && bytes.toString('latin1', packet + 1, packet + 7) === 'vorbis') {
    rate = bytes.readUInt32LE(packet + 12)
  } else {
    throw notOgg('its codec is neither Opus nor Vorbis')
  }
  if (rate === 0) throw notOgg('its sample rate is 0')
  // The last page with a granule position says how many samples came before its end.
  const capture = Buffer.from('OggS', 'latin1')
  for (let at = bytes.lastIndexOf(capture), tries = 0; at >= 0 && tries < 64; at = bytes.lastIndexOf(capture, at - 1), tries++) {
    if (at + 14 > bytes.length) continue
    const granule = bytes.readBigUInt64LE(at + 6)
    if (granule === 0xffffffffffffffffn) continue
    return Math.max(0, Number(granule) - preSkip) / rate
  }
  throw notOgg('no page says how many samples it holds')
}

function readMp4(bytes: Buffer, field: string): number {
  const notMp4 = (why: string) => fieldError(field, `is not a readable M4A/MP4 file: ${why}`)
  /** The boxes between `from` and `to`: type, where its content starts and ends. */
  const boxes = function* (from: number, to: number): Generator<{ type: string; start: number; end: number }> {
    for (let at = from; at + 8 <= to;) {
      let size = bytes.readUInt32BE(at)
      let header = 8
      if (size === 1) {
        if (at + 16 > to) return
        size = Number(bytes.readBigUInt64BE(at + 8))
        header = 16
      } else if (size === 0) size = to - at
      if (size < header || at + size > to) return
      yield { type: bytes.toString('latin1', at + 4, at + 8), start: at + header, end: at + size }
      at += size
    }
  }
  for (const box of boxes(0, bytes.length)) {
    if (box.type !== 'moov') continue
    for (const inner of boxes(box.start, box.end)) {
      if (inner.type !== 'mvhd') continue
      const version = bytes[inner.start]!
      const need = version === 1 ? 32 : 20
      if (inner.end - inner.start < need) throw notMp4('its movie header is too short')
      const timescale = bytes.readUInt32BE(inner.start + (version === 1 ? 20 : 12))
      const duration = version === 1 ? Number(bytes.readBigUInt64BE(inner.start + 24)) : bytes.readUInt32BE(inner.start + 16)
      if (timescale === 0) throw notMp4('its time scale is 0')
      return duration / timescale
    }
  }
  throw notMp4('it has no movie header (moov/mvhd)')
}
