// The bytes of the formats the speech endpoint answers in: `pcm` (raw 16-bit little-endian mono at
// 24 kHz, the samples as they are, text tag included), `wav` (the same samples behind the canonical
// 44-byte RIFF/WAVE header, as wavefile writes it) and `mp3` (MPEG-2 Layer III at 24 kHz, 48 kbps,
// from lamejs, behind an ID3 tag holding the text).
import { Mp3Encoder } from '@breezystack/lamejs'
import { endianness } from 'node:os'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { id3Tag } from './id3.ts'
import { SAMPLE_RATE } from './synth.ts'

export const MP3_KBPS = 48
/** Samples encoded between two turns of the event loop (about 1.5 s of sound, a few ms of work). */
const MP3_SLICE = 1152 * 32

export function pcmBytes(samples: Int16Array): Buffer {
  if (endianness() === 'LE') return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  const out = Buffer.allocUnsafe(samples.length * 2)
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, i * 2)
  return out
}

/** Bytes of the WAV header before the samples. */
export const WAV_HEADER_BYTES = 44

/**
 * The header of a WAV file of `samples` 16-bit mono samples at 24 kHz (RIFF, a 16-byte PCM fmt chunk,
 * the data chunk's head), written into `into`: the samples follow it. Written here rather than by
 * wavefile, which packs every sample in JavaScript (0.85 s for ten minutes of speech).
 */
export function writeWavHeader(into: Uint8Array, samples: number): void {
  const view = new DataView(into.buffer, into.byteOffset, WAV_HEADER_BYTES)
  const data = samples * 2
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(at + i, text.charCodeAt(i))
  }
  ascii(0, 'RIFF')
  view.setUint32(4, 36 + data, true)
  ascii(8, 'WAVEfmt ')
  view.setUint32(16, 16, true) // fmt chunk size
  view.setUint16(20, 1, true) // PCM
  view.setUint16(22, 1, true) // mono
  view.setUint32(24, SAMPLE_RATE, true)
  view.setUint32(28, SAMPLE_RATE * 2, true) // bytes a second
  view.setUint16(32, 2, true) // bytes a sample frame
  view.setUint16(34, 16, true) // bits a sample
  ascii(36, 'data')
  view.setUint32(40, data, true)
}

/** The samples as a WAV file (PCM, 16-bit mono at 24 kHz): what a browser or any player opens. */
export function wavBytes(samples: Int16Array): Buffer {
  const file = Buffer.allocUnsafeSlow(WAV_HEADER_BYTES + samples.length * 2)
  writeWavHeader(file, samples.length)
  file.set(pcmBytes(samples), WAV_HEADER_BYTES)
  return file
}

/**
 * The MP3 of the samples, encoded a slice at a time so a long text does not hold the event loop for
 * seconds (lamejs runs at about 60 times real time).
 */
export async function mp3Bytes(samples: Int16Array, text: string): Promise<Buffer> {
  const encoder = new Mp3Encoder(1, SAMPLE_RATE, MP3_KBPS)
  const parts: Buffer[] = [id3Tag(text)]
  for (let at = 0; at < samples.length; at += MP3_SLICE) {
    if (at > 0) await nextTurn()
    const frames = encoder.encodeBuffer(samples.subarray(at, at + MP3_SLICE))
    if (frames.length > 0) parts.push(Buffer.from(frames))
  }
  parts.push(Buffer.from(encoder.flush()))
  return Buffer.concat(parts)
}
