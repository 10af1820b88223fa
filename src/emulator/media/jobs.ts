// The heavy media work, as plain data in and out, so the same function runs in a worker thread of the
// pool (media-worker.ts) or, for a job too small to pay for the hop, in the emulator's own thread:
// drawing and encoding images, synthesizing and encoding speech, probing and hashing the audio of a
// transcription and writing its text, and reading an upload's type from its bytes. The same job
// gives the same bytes wherever it runs.
import { createHash } from 'node:crypto'
import { probeAudio, type AudioFormat, type ProbedAudio } from './audio-probe.ts'
import { mp3Bytes, WAV_HEADER_BYTES, writeWavHeader } from './audio-encode.ts'
import { sniffFileType } from './file-sniff.ts'
import { encodePicture, type ImageFormat } from './image-encode.ts'
import { drawPicture } from './picture.ts'
import { embeddedSamples, embedText, speechSamples, synthesize, type SpeechPlan } from './synth.ts'
import { transcriptChars, writeTranscript, type Transcript, type TranscriptJob } from './transcript.ts'

/** Images of one request: one per identity (model, variation, index and prompt), all of one size and format. */
export interface ImagesJob {
  kind: 'images'
  seed: number
  identities: string[]
  width: number
  height: number
  transparent: boolean
  format: ImageFormat
  jpegQuality: number
}

/** Speech: the WAV file (wav and pcm) or the MP3 of a text. */
export interface SpeechJob extends SpeechPlan {
  kind: 'speech'
  format: 'wav' | 'pcm' | 'mp3'
}

/** A transcription's audio: probed as `format` (a 400 naming `field` if it is not), and its SHA-256. */
export interface AudioProbeJob {
  kind: 'audio-probe'
  audio: Uint8Array
  format: AudioFormat
  field: string
  /** How to name each format instead, for the 400 when the bytes show another. */
  fixes: Record<AudioFormat, string>
}

/** An upload's type, read from all its bytes (a large text's structure takes a while: file-sniff.ts). */
export interface FileSniffJob {
  kind: 'file-sniff'
  bytes: Uint8Array
}

export type MediaJob = ImagesJob | SpeechJob | AudioProbeJob | FileSniffJob | TranscriptJob

export interface ProbedAndHashed {
  probed: ProbedAudio
  digest: string
}

/** Work (in pixels, samples or bytes) below which a job runs in the emulator's thread: the hop would cost more than the job. */
export const INLINE_PIXELS = 64 * 64
export const INLINE_SPEECH_SAMPLES = 2400
export const INLINE_AUDIO_BYTES = 64 * 1024
export const INLINE_SNIFF_BYTES = 64 * 1024
/** A transcript's characters: 16 s of drawn speech; the tokenizer's worst, one unbroken run of them, takes about 10 ms (1,024 took 45). */
export const INLINE_TRANSCRIPT_CHARS = 256

/** Whether a job is small enough to run where it is asked for. */
export function runsInline(job: MediaJob): boolean {
  switch (job.kind) {
    case 'images':
      return job.identities.length * job.width * job.height <= INLINE_PIXELS
    case 'speech':
      return speechSamples(job.text, job.speed) <= INLINE_SPEECH_SAMPLES
    case 'audio-probe':
      return job.audio.byteLength <= INLINE_AUDIO_BYTES
    case 'file-sniff':
      return job.bytes.byteLength <= INLINE_SNIFF_BYTES
    case 'transcript':
      return transcriptChars(job) <= INLINE_TRANSCRIPT_CHARS
  }
}

export function renderImages(job: ImagesJob): Uint8Array[] {
  return job.identities.map((identity) => encodePicture(drawPicture(job.seed, identity, job.width, job.height, job.transparent), job.format, job.jpegQuality))
}

export function probeAndHash(job: AudioProbeJob): ProbedAndHashed {
  const bytes = Buffer.from(job.audio.buffer, job.audio.byteOffset, job.audio.byteLength)
  const probed = probeAudio(bytes, job.format, job.field, (format) => job.fixes[format])
  return { probed, digest: createHash('sha256').update(bytes).digest('hex') }
}

/** What a job gives back: files as bytes, or for a WAV the word that the file given to `progress` is whole. */
export type JobResult =
  | { kind: 'images'; files: Uint8Array[] }
  | { kind: 'mp3'; file: Uint8Array }
  | { kind: 'wav' }
  | { kind: 'audio-probe'; value: ProbedAndHashed }
  | { kind: 'file-sniff'; type: string | null }
  | { kind: 'transcript'; value: Transcript }

/** A WAV being written: its memory (shared with the emulator's thread when made in a worker) and how much of it is final. */
export type WavProgress = (file: Uint8Array, ready: number) => void

/** Runs a job; `shared` makes a WAV in memory both threads see, so its slices need no copy or message of their own. */
export async function perform(job: MediaJob, progress: WavProgress, shared: boolean): Promise<JobResult> {
  switch (job.kind) {
    case 'images':
      return { kind: 'images', files: renderImages(job) }
    case 'audio-probe':
      return { kind: 'audio-probe', value: probeAndHash(job) }
    case 'file-sniff':
      return { kind: 'file-sniff', type: sniffFileType(job.bytes) }
    case 'transcript':
      return { kind: 'transcript', value: await writeTranscript(job) }
    case 'speech': {
      if (job.format === 'mp3') return { kind: 'mp3', file: await speechMp3(job) }
      const bytes = speechFileBytes(job)
      const file = new Uint8Array(shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes))
      writeSpeechWav(job, file, (ready) => progress(file, ready))
      return { kind: 'wav' }
    }
  }
}

/** Bytes of the WAV file of a speech job (wav and pcm are made as one: pcm is its samples). */
export const speechFileBytes = (job: SpeechPlan): number => WAV_HEADER_BYTES + speechSamples(job.text, job.speed) * 2

/** Samples reported at a time while a WAV is written: about 11 s of sound, 512 KB (55 messages for the longest). */
const REPORT_SAMPLES = 256 * 1024

/**
 * The WAV file of a speech job, written into `file` (speechFileBytes long) as it is synthesized:
 * `ready(bytes)` is told each time more of its start is final, the text's tag in the low bits
 * included, so those bytes can be sent while the rest is made.
 */
export function writeSpeechWav(job: SpeechPlan, file: Uint8Array, ready: (bytes: number) => void): void {
  const total = speechSamples(job.text, job.speed)
  writeWavHeader(file, total)
  // The samples in the file's own memory: 44 bytes in, so 16-bit aligned wherever the file is.
  const samples = new Int16Array(file.buffer, file.byteOffset + WAV_HEADER_BYTES, total)
  const tagged = Math.max(1, embeddedSamples(job.text, total))
  let embedded = false
  let reported = 0
  const final = (done: number): void => {
    // The tag is written once its samples are final; nothing is reported before it is.
    if (!embedded) {
      if (done < tagged && done < total) return
      embedText(samples, job.text)
      embedded = true
    }
    if (done < total && done - reported < REPORT_SAMPLES) return
    if (!LITTLE_ENDIAN) swapBytes(file, WAV_HEADER_BYTES + reported * 2, WAV_HEADER_BYTES + done * 2)
    reported = done
    ready(WAV_HEADER_BYTES + done * 2)
  }
  synthesize(job, samples, final)
}

/** The MP3 of a speech job, ID3 tag first. */
export async function speechMp3(job: SpeechPlan): Promise<Buffer> {
  const samples = synthesize(job)
  embedText(samples, job.text)
  return mp3Bytes(samples, job.text)
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** 16-bit words of a range swapped to little-endian, for a big-endian machine. */
function swapBytes(bytes: Uint8Array, from: number, to: number): void {
  for (let i = from; i + 1 < to; i += 2) {
    const low = bytes[i + 1]!
    bytes[i + 1] = bytes[i]!
    bytes[i] = low
  }
}
