// The audio readers of the transcription endpoint, on files built here byte by byte: each container's
// length read from its headers, the text tag in the low bits, and what is refused.
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/emulator/core/errors.ts'
import { id3Tag, id3Text } from '../../../src/emulator/media/id3.ts'
import { formatOfUpload, probeAudio, sniff, type AudioFormat } from '../../../src/emulator/media/audio-probe.ts'
import { embedText, extractText, speechSamples, synthesize } from '../../../src/emulator/media/synth.ts'

const probe = (bytes: Buffer, format: AudioFormat) => probeAudio(bytes, format, 'input_audio.data', (seen) => `set input_audio.format to ${seen}`)
const refusal = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    if (error instanceof ApiError) return error.message
    throw error
  }
  throw new Error('not refused')
}

function chunk(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.write(id, 0, 'latin1')
  head.writeUInt32LE(body.length, 4)
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)])
}

function wavFile(fmt: { code: number; channels: number; rate: number; bits: number }, data: Buffer, dataSize = data.length, extra: Buffer[] = []): Buffer {
  const blockAlign = (fmt.channels * fmt.bits) / 8
  const body = Buffer.alloc(fmt.code === 0xfffe ? 40 : 16)
  body.writeUInt16LE(fmt.code, 0)
  body.writeUInt16LE(fmt.channels, 2)
  body.writeUInt32LE(fmt.rate, 4)
  body.writeUInt32LE(fmt.rate * blockAlign, 8)
  body.writeUInt16LE(blockAlign, 12)
  body.writeUInt16LE(fmt.bits, 14)
  if (fmt.code === 0xfffe) body.writeUInt16LE(1, 24) // sub-format: PCM
  const dataChunk = chunk('data', data)
  dataChunk.writeUInt32LE(dataSize, 4)
  const all = Buffer.concat([Buffer.from('WAVE', 'latin1'), chunk('fmt ', body), ...extra, dataChunk])
  const head = Buffer.alloc(8)
  head.write('RIFF', 0, 'latin1')
  head.writeUInt32LE(all.length, 4)
  return Buffer.concat([head, all])
}

function oggPage(granule: bigint, packet: Buffer): Buffer {
  const head = Buffer.alloc(27 + 1)
  head.write('OggS', 0, 'latin1')
  head.writeBigUInt64LE(granule, 6)
  head[26] = 1
  head[27] = packet.length
  return Buffer.concat([head, packet])
}

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content)
  const head = Buffer.alloc(8)
  head.writeUInt32BE(8 + body.length, 0)
  head.write(type, 4, 'latin1')
  return Buffer.concat([head, body])
}

/** One MPEG-1 Layer III frame at 44.1 kHz, 128 kbps (417 bytes), silent. */
function mpeg1Frame(): Buffer {
  const frame = Buffer.alloc(417)
  frame.writeUInt32BE(0xfffb9000, 0)
  return frame
}

describe('durations from headers', () => {
  it('WAV: plain, 24-bit stereo extensible, a data chunk of unknown length, chunks before the data', () => {
    const oneSecond = Buffer.alloc(16_000 * 2)
    expect(probe(wavFile({ code: 1, channels: 1, rate: 16_000, bits: 16 }, oneSecond), 'wav').seconds).toBe(1)
    const stereo24 = Buffer.alloc(48_000 * 6 * 2)
    expect(probe(wavFile({ code: 0xfffe, channels: 2, rate: 48_000, bits: 24 }, stereo24), 'wav').seconds).toBe(2)
    expect(probe(wavFile({ code: 1, channels: 1, rate: 8000, bits: 16 }, Buffer.alloc(8000), 0xffffffff), 'wav').seconds).toBe(0.5)
    const list = chunk('LIST', Buffer.from('INFOISFT', 'latin1'))
    expect(probe(wavFile({ code: 1, channels: 1, rate: 8000, bits: 8 }, Buffer.alloc(4000), 4000, [list]), 'wav').seconds).toBe(0.5)
  })

  it('MP3: every frame counted, after an ID3 tag and over junk between frames', () => {
    const frames = Array.from({ length: 10 }, mpeg1Frame)
    const bytes = Buffer.concat([id3Tag('hello'), ...frames.slice(0, 5), Buffer.from('junk'), ...frames.slice(5)])
    const probed = probe(bytes, 'mp3')
    expect(probed.seconds).toBeCloseTo((10 * 1152) / 44_100, 9)
    expect(probed.embeddedText).toBe('hello')
  })

  it('FLAC: STREAMINFO; Ogg: the last granule (Opus at 48 kHz less its pre-skip, Vorbis at its rate); M4A: the movie header', () => {
    const info = Buffer.alloc(8 + 34)
    info.write('fLaC', 0, 'latin1')
    info[4] = 0x80
    info.writeUIntBE(34, 5, 3)
    info[18] = (44_100 >>> 12) & 0xff
    info[19] = (44_100 >>> 4) & 0xff
    info[20] = (44_100 & 0x0f) << 4
    info.writeUInt32BE(441_000, 22)
    expect(probe(info, 'flac').seconds).toBe(10)

    const opusHead = Buffer.alloc(19)
    opusHead.write('OpusHead', 0, 'latin1')
    opusHead.writeUInt16LE(312, 10)
    const opus = Buffer.concat([oggPage(0n, opusHead), oggPage(96_312n, Buffer.alloc(20)), oggPage(0xffffffffffffffffn, Buffer.alloc(5))])
    expect(probe(opus, 'ogg').seconds).toBe(2)
    const vorbisHead = Buffer.alloc(30)
    vorbisHead[0] = 1
    vorbisHead.write('vorbis', 1, 'latin1')
    vorbisHead.writeUInt32LE(22_050, 12)
    expect(probe(Buffer.concat([oggPage(0n, vorbisHead), oggPage(33_075n, Buffer.alloc(20))]), 'ogg').seconds).toBe(1.5)

    const mvhd0 = Buffer.alloc(100)
    mvhd0.writeUInt32BE(1000, 12)
    mvhd0.writeUInt32BE(3500, 16)
    const m4a = Buffer.concat([box('ftyp', Buffer.from('M4A \0\0\0\0', 'latin1')), box('mdat', Buffer.alloc(64)), box('moov', box('mvhd', mvhd0))])
    expect(probe(m4a, 'm4a').seconds).toBe(3.5)
    const mvhd1 = Buffer.alloc(112)
    mvhd1[0] = 1
    mvhd1.writeUInt32BE(48_000, 20)
    mvhd1.writeBigUInt64BE(240_000n, 24)
    expect(probe(Buffer.concat([box('ftyp', Buffer.alloc(8)), box('moov', box('trak'), box('mvhd', mvhd1))]), 'm4a').seconds).toBe(5)
  })
})

describe('refusals', () => {
  it('names what is wrong with each container', () => {
    expect(refusal(() => probe(Buffer.from('OggS'.padEnd(60, '\0'), 'latin1'), 'ogg'))).toBe(
      'Field `input_audio.data` is not a readable Ogg file: its codec is neither Opus nor Vorbis',
    )
    expect(refusal(() => probe(Buffer.concat([box('ftyp', Buffer.alloc(8)), box('moov')]), 'm4a'))).toBe(
      'Field `input_audio.data` is not a readable M4A/MP4 file: it has no movie header (moov/mvhd)',
    )
    const streaming = Buffer.alloc(42)
    streaming.write('fLaC', 0, 'latin1')
    streaming.writeUIntBE(34, 5, 3)
    streaming[18] = 0x0a
    expect(refusal(() => probe(streaming, 'flac'))).toBe(
      'Field `input_audio.data` is a FLAC stream that does not say how many samples it holds (STREAMINFO total of 0): the emulator cannot measure it',
    )
    const noData = wavFile({ code: 1, channels: 1, rate: 8000, bits: 16 }, Buffer.alloc(0)).subarray(0, 36)
    expect(refusal(() => probe(noData, 'wav'))).toBe('Field `input_audio.data` is not a readable WAV file: it has no data chunk')
    expect(refusal(() => probe(wavFile({ code: 1, channels: 1, rate: 8000, bits: 16 }, Buffer.alloc(0)), 'wav'))).toBe(
      'Field `input_audio.data` holds no audio (a wav stream of no length)',
    )
  })

  it('knows formats by extension, content type and bytes', () => {
    expect(formatOfUpload('Voice Memo.M4A', '')).toBe('m4a')
    expect(formatOfUpload('clip', 'audio/x-wav; charset=binary')).toBe('wav')
    expect(formatOfUpload('take.opus', 'application/octet-stream')).toBe('ogg')
    expect(formatOfUpload('clip.webm', 'audio/webm')).toBeUndefined()
    expect(sniff(Buffer.concat([mpeg1Frame(), mpeg1Frame()]))).toBe('mp3')
    // Four bytes that pass for a frame header are not an MP3 unless the next frame follows.
    expect(sniff(Buffer.concat([mpeg1Frame().subarray(0, 4), Buffer.alloc(500)]))).toBeUndefined()
  })
})

describe('the text in the low bits', () => {
  it('survives in the samples, is found only with its checksum, and leaves the sound as it was', () => {
    const text = 'Ünïcödé, emoji 🎙 and all.'
    const samples = synthesize({ text, voiceKey: 'v', styleKey: '', speed: 1 })
    const before = Int16Array.from(samples)
    embedText(samples, text)
    expect(samples).toHaveLength(speechSamples(text, 1))
    expect(extractText((i) => samples[i]!, samples.length)).toBe(text)
    for (let i = 0; i < samples.length; i++) expect(Math.abs(samples[i]! - before[i]!)).toBeLessThanOrEqual(1)
    samples[40] = samples[40]! ^ 1
    expect(extractText((i) => samples[i]!, samples.length)).toBeNull()
    expect(extractText((i) => before[i]!, before.length)).toBeNull()
  })

  it('reads the ID3 text only from a frame with its own description', () => {
    expect(id3Text(id3Tag('said'))).toBe('said')
    const other = id3Tag('said')
    other.write('x', 20, 'latin1')
    expect(id3Text(other)).toBeNull()
  })
})
