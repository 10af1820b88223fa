// The state document's reader (modules/state/state-parse.service.ts): the value JSON.parse gives, however the
// body is cut into chunks (an escape, a multi-byte character, a key split between two); every way a
// body is not JSON refused as Fastify's parser refuses it; a value over its bound, a body over its
// bound and nesting too deep refused as they pass them.
import { errorCodes } from 'fastify'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/emulator/core/errors.ts'
import { StateDocumentReader, type DocumentBounds } from '../../../src/emulator/modules/state/state-parse.service.ts'

const BOUNDS: DocumentBounds = { bodyBytes: 10_000, valueBytes: 200, depth: 8 }

/** As Fastify's default parser answers a value: any text that is not JSON is one error. */
function parse(text: string): unknown {
  if (text.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY()
  try {
    return JSON.parse(text)
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()
  }
}

/** The reader's answer to `text` fed in chunks of `size` bytes (whole when none): the document, or what it threw. */
function read(text: string | Buffer, size?: number, bounds = BOUNDS): { value: unknown } | { error: Error } {
  const reader = new StateDocumentReader(bounds, parse)
  const bytes = typeof text === 'string' ? Buffer.from(text) : text
  const step = size ?? Math.max(bytes.length, 1)
  try {
    for (let at = 0; at < bytes.length; at += step) reader.push(bytes.subarray(at, at + step))
    return { value: reader.finish() }
  } catch (error) {
    return { error: error as Error }
  }
}

const code = (answer: { value: unknown } | { error: Error }): string | undefined =>
  'error' in answer ? ((answer.error as Error & { code?: string }).code ?? `${answer.error.constructor.name}`) : undefined

const DOCUMENTS = [
  '{}',
  '{"format":"model-gateway-emulator/state","version":1,"tables":{"a":[],"b":[{"x":1,"y":"two"},{"x":-2.5e3,"y":null}]},"settings":{"s":{"n":[1,2,{"k":true}]}}}',
  ' \n\t{ "tables" : { "t" : [ { "q" : "say \\"hi\\" \\\\ \\/ \\u00e9 \\ud83d\\ude00 \\n" } , { } ] } , "x" : [ ] } \r\n',
  '{"tables":{"t":[1,"s",true,false,null,[],[[]],{"a":{}}]}}',
  '{"text":"ünïcödé 🙂 ✓ \u2028","tables":{"ünï":[{"k":"🙂"}]}}',
  // The last of two equal keys wins, as in JSON.parse: a table, `tables` itself, a member.
  '{"tables":{"t":[{"a":1}],"t":[{"a":2}]},"v":1,"v":2}',
  '{"tables":{"t":[{"a":1}]},"tables":{"u":[]}}',
  '{"tables":{"t":[]},"tables":5}',
  // What is not walked (a table that is no array, tables that are no object, a document that is no object) is one value.
  '{"tables":{"t":{"not":"rows"},"u":"x"}}',
  '{"tables":[1,2]}',
  '[{"tables":{}}]',
  '"text"',
  '5',
  '-0.5e-3',
  'null',
  ' true ',
]

describe('the document, however it is cut', () => {
  it.each(DOCUMENTS)('%s', (text) => {
    const expected = JSON.parse(text)
    for (const size of [undefined, 1, 2, 3, 5, 7, 16]) {
      expect(read(text, size), `chunks of ${size}`).toEqual({ value: expected })
    }
  })

  it('skips a byte order mark at the start, as Fastify does', () => {
    expect(read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]))).toEqual({ value: { a: 1 } })
  })

  it('reads long strings with escapes in every chunking (the search for quotes and backslashes)', () => {
    const text = JSON.stringify({ tables: { t: [{ s: 'x"y\\z é🙂\n'.repeat(20) }] }, k: '\\"'.repeat(10) })
    for (const size of [1, 2, 3, 4, 9, 64]) expect(read(text, size, { ...BOUNDS, valueBytes: 1000 })).toEqual({ value: JSON.parse(text) })
  })
})

describe('a body that is not JSON is refused as Fastify refuses it', () => {
  it.each([
    '{',
    '{"a"',
    '{"a":',
    '{"a":1',
    '{"a":1,}',
    '{"a" 1}',
    '{a:1}',
    '{"tables":{"t":[1,]}}',
    '{"tables":{"t":[1 2]}}',
    '{"tables":{"t":[}}',
    '{"tables":{"t":[,1]}}',
    '{"a":}',
    '{"a"::1}',
    '{"a":1,,"b":2}',
    '{"a":1}}',
    '{"a":1} x',
    '{} {}',
    '{"a":tru}',
    '{"a":"unterminated}',
    '{"a":"bad \\x escape"}',
    '{"k\\q":1}',
    '   ',
    '{"__proto__":{"x":1}}',
    '{"tables":{"__proto__":[]}}',
  ])('%s', (text) => {
    for (const size of [undefined, 1, 3]) expect(code(read(text, size)), `chunks of ${size}`).toBe('FST_ERR_CTP_INVALID_JSON_BODY')
  })

  it('an empty body', () => {
    expect(code(read(''))).toBe('FST_ERR_CTP_EMPTY_JSON_BODY')
  })
})

describe('bounds, refused as they are passed', () => {
  it('a row over the bound of one value: a 413 naming the row', () => {
    const text = `{"tables":{"t":[{"a":1},{"s":"${'x'.repeat(300)}"}]}}`
    for (const size of [undefined, 7, 64]) {
      const answer = read(text, size)
      expect('error' in answer && answer.error).toBeInstanceOf(ApiError)
      const error = (answer as { error: ApiError }).error
      expect(error.status).toBe(413)
      expect(error.message).toBe('Request payload too large: `tables.t[1]` is over 0 MB, the most one row (or other value) of a state document may hold')
      expect(error.metadata).toEqual({ field: 'tables.t[1]', location: 'body', limit_bytes: 200 })
    }
  })

  it('another member over the bound: named by its key', () => {
    const answer = read(`{"settings":{"s":"${'x'.repeat(300)}"}}`, 16)
    expect((answer as { error: ApiError }).error.metadata).toMatchObject({ field: 'settings' })
  })

  it('a body over its bound', () => {
    expect(code(read(`{"tables":{"t":[${'{"a":1},'.repeat(20)}{}]}}`, 8, { ...BOUNDS, bodyBytes: 100 }))).toBe('FST_ERR_CTP_BODY_TOO_LARGE')
  })

  it('nesting deeper than the bound, the envelope counted', () => {
    // The top object, tables and a table are three levels: a row may nest five more.
    const ok = `{"tables":{"t":[${'['.repeat(5)}${']'.repeat(5)}]}}`
    expect(read(ok)).toEqual({ value: JSON.parse(ok) })
    const deep = `{"tables":{"t":[${'['.repeat(6)}${']'.repeat(6)}]}}`
    const answer = read(deep, 2)
    expect((answer as { error: ApiError }).error.metadata).toEqual({ field: 'body', location: 'body', limit: 8 })
  })
})
