// The media bodies' reader (http/media-body.ts: MediaBodyReader): a body read without being held as one
// text, its media values decoded as they arrive and put back into its parsed skeleton, is what JSON.parse
// makes of the whole body, and its text what the whole body decodes to: for random bodies (escapes, every
// plane of Unicode, bytes that are no UTF-8, duplicate keys, values that are no strings) cut at random.
import { describe, expect, it } from 'vitest'
import { fieldError } from '../../../src/emulator/core/errors.ts'
import { MediaBodyReader, type MediaBody } from '../../../src/emulator/http/media-body.ts'

const BODY: MediaBody = {
  fields: ['images[]', 'start_image', 'frame_images[].image_url.url', 'refs[].*.url'].map((path) => ({
    path,
    maxChars: 1_000_000,
    refuse: (field: string) => fieldError(field, 'is too long'),
  })),
  otherBytes: 1_000_000,
}

/** A seeded stream of draws, so a failure can be replayed. */
function draws(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1
  return (n) => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) % n
  }
}

/** What reading `bytes` cut into pieces of the sizes `cut` gives: the text and the value, or the error. */
function read(bytes: Buffer, cut: (left: number) => number, pieceBytes?: number): { text: string; value?: unknown; error?: string } {
  const reader = new MediaBodyReader(BODY, undefined, pieceBytes)
  for (let at = 0; at < bytes.length;) {
    const size = Math.max(1, Math.min(bytes.length - at, cut(bytes.length - at)))
    const problem = reader.push(bytes.subarray(at, at + size))
    if (problem) throw problem
    at += size
  }
  const { text, value, error } = reader.finish((text) => JSON.parse(text))
  return error ? { text, error: 'not JSON' } : { text, value }
}

/** What JSON.parse makes of the whole body. */
function whole(bytes: Buffer): { text: string; value?: unknown; error?: string } {
  const text = bytes.toString('utf8')
  try {
    return { text, value: JSON.parse(text) }
  } catch {
    return { text, error: 'not JSON' }
  }
}

const CHARS = ['A', 'z', '0', '+', '/', '=', ',', ':', ' ', '"', '\\', '\n', '\t', '\u0001', 'é', '€', '完', '😀', '\ud800', '[', '{', '}']

/** A random string's JSON: JSON.stringify's escapes, and sometimes others as clients write them (`\/`, `\u0041`). */
function stringJson(draw: (n: number) => number): string {
  const length = draw(4) === 0 ? draw(3000) : draw(40)
  let value = ''
  for (let i = 0; i < length; i++) value += CHARS[draw(CHARS.length)]!
  let json = JSON.stringify(value)
  if (draw(3) === 0) json = json.replaceAll('/', '\\/')
  if (draw(3) === 0) json = json.replaceAll('A', '\\u0041')
  return json
}

function bodyJson(draw: (n: number) => number): string {
  const s = () => stringJson(draw)
  const value = () => [s(), '12', 'null', '[]', `{"url":${s()}}`][draw(5)]!
  const members = [
    `"images":[${Array.from({ length: draw(4) }, () => (draw(5) === 0 ? value() : s())).join(',')}]`,
    `"start_image":${draw(4) === 0 ? value() : s()}`,
    `"frame_images":[${Array.from({ length: draw(3) }, () => `{"image_url":{"url":${s()}},"frame_type":"first_frame"}`).join(',')}]`,
    `"refs":[{"image_url":{"url":${s()}}},{"audio_url":{"url":${s()},"other":${s()}}}]`,
    `"prompt":${s()}`,
    // The same key again: JSON.parse keeps the last.
    `"images":[${s()}]`,
    `"nested":{"images":[${s()}]}`,
  ]
  const chosen = members.filter(() => draw(3) !== 0)
  return `{${chosen.join(draw(2) === 0 ? ',' : ' ,\n ')}}`
}

describe('a media body read as it arrives', () => {
  // 400 generated bodies, each read in every cut: about a second alone, several beside another worker.
  it('is what JSON.parse makes of the whole body, and keeps its text, however it is cut', { timeout: 30_000 }, () => {
    const seen = { json: 0, not: 0 }
    for (let seed = 1; seed <= 400; seed++) {
      const draw = draws(seed)
      let bytes = Buffer.from(bodyJson(draw))
      // Every other body has a byte changed or dropped: mostly no JSON then, in all sorts of places.
      if (seed % 2 === 0) {
        const at = draw(bytes.length)
        const byte = Buffer.from('"\\\u0001x{]:,')[draw(8)]!
        bytes =
          draw(2) === 0
            ? Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)])
            : Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at + 1)])
      }
      const expected = whole(bytes)
      seen[expected.error ? 'not' : 'json']++
      for (const cut of [() => bytes.length, () => 1, () => 1 + draw(7), () => 1 + draw(5000)]) {
        expect(read(bytes, cut), `seed ${seed}`).toEqual(expected)
        // Values decoded a few bytes at a time: escapes and characters cut between pieces.
        expect(read(bytes, cut, 1 + draw(9)), `seed ${seed}, small pieces`).toEqual(expected)
      }
    }
    expect(seen.json).toBeGreaterThan(150)
    expect(seen.not).toBeGreaterThan(50)
  })

  it('decodes bytes that are no UTF-8 as a whole decode does, and cut characters across pieces', () => {
    const text = Buffer.from('{"images":["a€b😀c","', 'utf8')
    for (const tail of [[0xe2, 0x82], [0xff], [0xf0, 0x9f, 0x98], [0xc3]]) {
      const bytes = Buffer.concat([text, Buffer.from(tail), Buffer.from('x"],"prompt":"p', 'utf8'), Buffer.from(tail), Buffer.from('"}')])
      for (const size of [1, 2, 3, bytes.length]) for (const piece of [1, 2, 1000]) expect(read(bytes, () => size, piece)).toEqual(whole(bytes))
    }
  })

  it('answers a body that is not JSON as JSON.parse does: malformed around, or inside, a media value, or cut short in one', () => {
    for (const text of [
      '{"images":["AAAA" "BBBB"]}',
      '{"images":["AA\u0001AA"]}',
      '{"images":["AA\\qAA"]}',
      '{"images":["AA\\u12G4"]}',
      '{"images":["AAAA',
      '{"images":["AAAA\\',
      '{"images":["AAAA"]',
      '{"images":["AAAA"]}}',
      '',
    ]) {
      const bytes = Buffer.from(text)
      for (const size of [1, 2, bytes.length || 1])
        for (const piece of [1, 3, 1000])
          expect(
            read(bytes, () => size, piece),
            JSON.stringify(text),
          ).toEqual(whole(bytes))
    }
  })

  it('gives each media value as one string, and the text as the pieces it came in', () => {
    const image = 'A'.repeat(300_000)
    const bytes = Buffer.from(JSON.stringify({ images: [image, image], prompt: 'p' }))
    const { text, value } = read(bytes, () => 65_536)
    expect(value).toEqual({ images: [image, image], prompt: 'p' })
    expect(text).toBe(bytes.toString())
  })
})
