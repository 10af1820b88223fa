// Requests to the audio endpoints, forms as a browser or an official client sends them, and WAV files
// made and read with wavefile (independent of the emulator's own readers).
import { createRequire } from 'node:module'
import type { TestEmulator } from '../../helpers/emulator.ts'

// wavefile is CommonJS with no named exports that ES modules can see.
export const { WaveFile } = createRequire(import.meta.url)('wavefile') as typeof import('wavefile')

export const TTS = 'openai/gpt-4o-mini-tts'
export const STT = 'openai/whisper-large-v3'
export const RATE = 24_000

export interface AudioAnswer {
  status: number
  bytes: Buffer
  /** The JSON body of an error. */
  body: any
  headers: Record<string, unknown>
}

/** `key` null sends no key. */
export async function speak(
  emu: TestEmulator,
  body: Record<string, unknown>,
  key: string | null = emu.keys.standard,
  headers: Record<string, string> = {},
): Promise<AudioAnswer> {
  const res = await emu.app.inject({
    method: 'POST',
    url: '/api/v1/audio/speech',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ model: TTS, ...body }),
  })
  let json: unknown = null
  if (String(res.headers['content-type']).startsWith('application/json')) json = res.json()
  return { status: res.statusCode, bytes: res.rawPayload, body: json, headers: res.headers as Record<string, unknown> }
}

/** The samples of a `pcm` answer (16-bit little-endian). */
export const samplesOf = (pcm: Buffer): Int16Array => {
  const out = new Int16Array(pcm.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = pcm.readInt16LE(i * 2)
  return out
}

export const transcribe = (emu: TestEmulator, body: Record<string, unknown>, key: string | null = emu.keys.standard) =>
  emu.send('POST', '/api/v1/audio/transcriptions', { model: STT, ...body }, key ?? undefined)

export const audioJson = (bytes: Uint8Array, format: string) => ({ data: Buffer.from(bytes).toString('base64'), format })

export interface FilePart {
  /** The form field: `file` unless said. */
  field?: string
  name: string
  bytes: Uint8Array
  type?: string
}

/** A multipart/form-data body as fetch writes it: repeated fields for lists, each file with its name and type. */
export async function form(fields: Record<string, string | string[]>, files: FilePart[] = []): Promise<{ payload: Buffer; contentType: string }> {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) data.append(name, v)
  for (const file of files) data.append(file.field ?? 'file', new Blob([Buffer.from(file.bytes)], { type: file.type ?? '' }), file.name)
  const request = new Request('http://localhost/', { method: 'POST', body: data })
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! }
}

export async function transcribeForm(emu: TestEmulator, fields: Record<string, string | string[]>, files: FilePart[], key: string | null = emu.keys.standard) {
  const { payload, contentType } = await form(fields, files)
  return emu.request({
    method: 'POST',
    url: '/api/v1/audio/transcriptions',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': contentType },
    payload,
  })
}

/** A WAV file of 16-bit samples. */
export function wav(samples: Int16Array, rate = RATE, channels = 1): Buffer {
  const file = new WaveFile()
  file.fromScratch(channels, rate, '16', samples)
  return Buffer.from(file.toBuffer())
}

/** A tone: `seconds` of a sine at `hz`, 16-bit. */
export function tone(seconds: number, hz: number, rate = RATE, amplitude = 8000): Int16Array {
  const out = new Int16Array(Math.round(seconds * rate))
  for (let i = 0; i < out.length; i++) out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate))
  return out
}

/** The frames of an MP3 (after its ID3 tag), checked header by header as MPEG-2 Layer III at 24 kHz, 48 kbps. */
export function mp3Frames(bytes: Buffer): { frames: number; seconds: number; tagged: boolean } {
  let at = 0
  const tagged = bytes.toString('latin1', 0, 3) === 'ID3'
  if (tagged) at = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!)
  let frames = 0
  while (at < bytes.length) {
    // 0xFFF3: sync, MPEG-2, Layer III, no CRC; bitrate index 6 (48 kbps), sample-rate index 1 (24 kHz).
    if (bytes.readUInt16BE(at) !== 0xfff3) throw new Error(`no frame header at byte ${at}`)
    if (bytes[at + 2]! >>> 4 !== 6 || ((bytes[at + 2]! >>> 2) & 3) !== 1) throw new Error(`frame at byte ${at} is not 48 kbps at 24 kHz`)
    at += 144 + ((bytes[at + 2]! >>> 1) & 1)
    frames++
  }
  if (at !== bytes.length) throw new Error('the last frame is cut short')
  return { frames, seconds: (frames * 576) / RATE, tagged }
}

/** The head of a FLAC file: "fLaC" and a STREAMINFO block saying its sample rate and sample count (and `salt` in its MD5, for another hash). */
export function flacHeader(rate: number, samples: number, salt = 0): Buffer {
  const bytes = Buffer.alloc(8 + 34)
  bytes.write('fLaC', 0, 'latin1')
  bytes[4] = 0x80 // last block, STREAMINFO
  bytes.writeUIntBE(34, 5, 3)
  const info = 8
  bytes[info + 10] = (rate >>> 12) & 0xff
  bytes[info + 11] = (rate >>> 4) & 0xff
  bytes[info + 12] = ((rate & 0x0f) << 4) | (0 << 1) // mono
  bytes[info + 13] = (15 << 4) | Math.floor(samples / 2 ** 32) // 16 bits per sample
  bytes.writeUInt32BE(samples % 2 ** 32, info + 14)
  bytes[info + 18] = salt
  return bytes
}
