// What each area's fuzzed operations are made of (test/integration/<area>/*.fuzz.ts, collected by
// fuzz.ts): a valid request, which the fuzz run mutates into bad ones, and its place in the list a
// seed draws from.
import { png } from '../../helpers/images.ts'

export interface FilePart {
  field: string
  name: string
  type: string
  bytes: Buffer
}

export interface FuzzOperation {
  /**
   * Its place in the list the run draws from (0, 1, 2...): a seed picks operations by place, so the
   * same seed sends the same requests however the areas' files are found. A new operation takes the
   * next free place.
   */
  place: number
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  path: string
  key?: 'management' | 'standard'
  body?: Record<string, unknown>
  /** A multipart form instead of a JSON body: its text fields (which the mutations change) and files. */
  form?: { fields: Record<string, string>; files: FilePart[] }
  /** Where the body carries inline media (data URIs, base64), which the `media` mutation replaces. */
  media?: Array<Array<string | number>>
}

export const IMG = 'https://example.com/frame.png'
/** A small PNG (16:9), inline as the media surfaces take it. */
export const PNG_BASE64 = png(64, 36).toString('base64')
export const PNG_DATA = `data:image/png;base64,${PNG_BASE64}`
/** Half a second of silence at 24 kHz, as raw 16-bit PCM. */
export const PCM = Buffer.alloc(24_000, 1)
/** A free model whose catalog entry has no output bound: the answer budget is the emulator's default. */
export const CHAT_MODEL = 'qwen/qwen3-coder:free'
export const CHAT_TOOL = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }
