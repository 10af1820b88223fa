// The bytes of the formats the speech endpoint answers in: `pcm` (raw 16-bit little-endian mono at
// 24 kHz, the samples as they are, text tag included), `wav` (the same samples in a RIFF/WAVE file,
// from wavefile) and `mp3` (MPEG-2 Layer III at 24 kHz, 48 kbps, from lamejs, behind an ID3 tag
// holding the text).
import { Mp3Encoder } from '@breezystack/lamejs'
import * as wavefileModule from 'wavefile'
import { endianness } from 'node:os'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { id3Tag } from './id3.ts'
import { SAMPLE_RATE } from './synth.ts'

// wavefile is CommonJS for Node (its class is a property of the default export) and an ES module for
// the CLI bundler (a named export): the class is taken from whichever this build sees.
const WaveFile: typeof wavefileModule.WaveFile =
  (wavefileModule as { WaveFile?: typeof wavefileModule.WaveFile }).WaveFile ??
  (wavefileModule as unknown as { default: { WaveFile: typeof wavefileModule.WaveFile } }).default.WaveFile

export const MP3_KBPS = 48
/** Samples encoded between two turns of the event loop (about 1.5 s of sound, a few ms of work). */
const MP3_SLICE = 1152 * 32

export function pcmBytes(samples: Int16Array): Buffer {
  if (endianness() === 'LE') return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  const out = Buffer.allocUnsafe(samples.length * 2)
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, i * 2)
  return out
}

/** The samples as a WAV file (PCM, 16-bit mono at 24 kHz): what a browser or any player opens. */
export function wavBytes(samples: Int16Array): Buffer {
  const wav = new WaveFile()
  wav.fromScratch(1, SAMPLE_RATE, '16', samples)
  return Buffer.from(wav.toBuffer())
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
