// The media bodies' scanner (http/media-body.ts): each media field bounded by its characters as they
// arrive (escapes and UTF-8 counted as JavaScript counts them), everything else by one budget of bytes,
// the nesting by its depth; the same answer however the body is cut into chunks.
import { describe, expect, it } from 'vitest'
import { ApiError, fieldError } from '../../../src/emulator/core/errors.ts'
import { MediaBodyScanner, type MediaBody } from '../../../src/emulator/http/media-body.ts'

const tooLong = (field: string) => fieldError(field, 'is too long')

const BODY: MediaBody = {
  fields: [
    { path: 'frame_images[].image_url.url', maxChars: 10, refuse: tooLong },
    { path: 'input_audio.data', maxChars: 10, refuse: tooLong },
    { path: 'refs[].*.url', maxChars: 10, refuse: tooLong },
    { path: 'images[]', maxChars: 10, refuse: tooLong },
    { path: 'grid[][]', maxChars: 10, refuse: tooLong },
  ],
  otherBytes: 200,
}

/** What the scanner answers to `text`, fed in chunks of `size` bytes (the whole at once when none). */
function scan(text: string, size?: number, body = BODY): ApiError | null {
  const scanner = new MediaBodyScanner(body, 8)
  const bytes = Buffer.from(text)
  const step = size ?? bytes.length
  for (let at = 0; at < bytes.length; at += step) {
    const problem = scanner.push(bytes.subarray(at, at + step))
    if (problem) return problem
  }
  return null
}

/** The answer for every way of cutting `text`: whole, byte by byte, and in threes. */
function answers(text: string, body = BODY): Array<string | null> {
  return [undefined, 1, 3].map((size) => {
    const problem = scan(text, size, body)
    return problem === null ? null : `${problem.status} ${problem.message}`
  })
}

const json = (value: unknown) => JSON.stringify(value)

describe('media fields', () => {
  it('pass at their bound, and are refused by the area past it, naming the field as sent', () => {
    const at = json({ frame_images: [{ image_url: { url: 'a'.repeat(10) } }] })
    expect(answers(at)).toEqual([null, null, null])
    const past = json({ model: 'x', frame_images: [{ image_url: { url: 'ok' } }, { image_url: { url: 'a'.repeat(11) } }] })
    expect(answers(past)).toEqual(Array(3).fill('400 Field `frame_images[1].image_url.url` is too long'))
  })

  it('match any key where the path says `*`, any index where it says `[]`, and nested arrays', () => {
    expect(answers(json({ refs: [{ audio_url: { url: 'a'.repeat(11) } }] }))).toEqual(Array(3).fill('400 Field `refs[0].audio_url.url` is too long'))
    expect(answers(json({ images: ['ok', 'a'.repeat(11)] }))).toEqual(Array(3).fill('400 Field `images[1]` is too long'))
    expect(answers(json({ grid: [['ok'], ['ok', 'a'.repeat(11)]] }))).toEqual(Array(3).fill('400 Field `grid[1][1]` is too long'))
    // The same key elsewhere is no media field: its bytes count against the rest's budget.
    expect(answers(json({ other: { image_url: { url: 'a'.repeat(11) } } }))).toEqual([null, null, null])
  })

  it('count escapes and UTF-8 as the characters they decode to', () => {
    // 10 characters each, in more than 10 bytes: \n, \u00e9, "é" (2 bytes), "€" (3 bytes), an escaped quote.
    for (const value of ['\n'.repeat(10), '\u00e9'.repeat(10), '€'.repeat(10), '"'.repeat(10), 'a\\/b'.repeat(2) + 'cc']) {
      expect(answers(json({ input_audio: { data: value } })), JSON.stringify(value)).toEqual([null, null, null])
    }
    const escapedUnicode = `{"input_audio":{"data":"${'\\u00e9'.repeat(10)}"}}`
    expect(answers(escapedUnicode)).toEqual([null, null, null])
    // An astral character is two UTF-16 units, as a JavaScript string's length counts it.
    expect(answers(json({ input_audio: { data: '😀'.repeat(5) } }))).toEqual([null, null, null])
    expect(answers(json({ input_audio: { data: '😀'.repeat(6) } }))).toEqual(Array(3).fill('400 Field `input_audio.data` is too long'))
    expect(answers(json({ input_audio: { data: 'é'.repeat(11) } }))).toEqual(Array(3).fill('400 Field `input_audio.data` is too long'))
  })

  it('read keys with escapes, and take a quote inside a string for no end', () => {
    expect(answers('{"input\\u005faudio":{"data":"aaaaaaaaaaaaaaaa"}}')).toEqual(Array(3).fill('400 Field `input_audio.data` is too long'))
    expect(answers(`{"a\\"b":{"data":"${'a'.repeat(16)}"}}`, { ...BODY, fields: [{ path: `a"b.data`, maxChars: 10, refuse: tooLong }] })).toEqual(
      Array(3).fill('400 Field `a"b.data` is too long'),
    )
    expect(answers(json({ note: '"}],{"input_audio":{"data":"aaaaaaaaaaaaaa"}}', input_audio: { data: 'ok' } }))).toEqual([null, null, null])
  })
})

describe('the rest of the body', () => {
  it('is bounded by its bytes together, naming where it ran out', () => {
    const small: MediaBody = { ...BODY, otherBytes: 40 }
    // 50 MB of media would pass: only the other bytes count.
    expect(answers(json({ images: ['a'.repeat(10)], prompt: 'short' }), small)).toEqual([null, null, null])
    const problem = scan(json({ images: ['ok'], prompt: 'x'.repeat(100) }), undefined, small)!
    expect(problem.status).toBe(413)
    expect(problem.message).toBe(
      'Request payload too large: besides its media (`frame_images[].image_url.url`, `input_audio.data`, `refs[].*.url`, `images[]`, `grid[][]`), a body of this route holds at most 0 MB, and this one passes that at `prompt`',
    )
    expect(problem.metadata).toEqual({ field: 'prompt', location: 'body', limit_bytes: 40 })
    // Whitespace, numbers and keys count too.
    expect(scan(`{"a": 1${' '.repeat(100)}}`, 7, small)?.metadata).toMatchObject({ field: 'a', limit_bytes: 40 })
    expect(scan(`[${'1,'.repeat(100)}1]`, 5, small)?.metadata).toMatchObject({ field: '[20]' })
  })

  it('nests no deeper than the bound', () => {
    expect(answers(`${'['.repeat(8)}${']'.repeat(8)}`)).toEqual([null, null, null])
    expect(answers(`${'['.repeat(9)}${']'.repeat(9)}`)).toEqual(
      Array(3).fill('400 Request body nests objects and arrays more than 8 levels deep; no request of this API needs that many'),
    )
    // Brackets inside strings do not nest.
    expect(answers(json({ prompt: '[[[[[[[[[[[[' }))).toEqual([null, null, null])
  })

  it('takes malformed JSON without a refusal of its own (the parser answers it), each byte still counted', () => {
    for (const text of ['{', '}}}]]]', '{"a" "b"}', '["unterminated', '{"images":[1,"aaaaaaaaaaaa"', '\\\\\\"', ':,:,']) {
      expect(answers(text), text).toEqual(answers(text).map(() => answers(text)[0]))
    }
    expect(answers('{"images":["aaaaaaaaaaaa"')).toEqual(Array(3).fill('400 Field `images[0]` is too long'))
  })
})
