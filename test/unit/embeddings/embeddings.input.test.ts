// The five shapes of an embeddings `input`, read directly: what each becomes (its kind, identity,
// features and tokens), every bad input as a 400 naming its place, and the bounds checked before any
// tokenizing (a text's bytes against the context length, a request's bytes and tokens in all).
import { beforeAll, describe, expect, it } from 'vitest'
import {
  BYTES_PER_TOKEN_BOUND,
  checkRequestTokens,
  MAX_REQUEST_TOKENS,
  parseInput,
  type InputLimits,
} from '../../../src/emulator/modules/embeddings/embeddings.input.ts'
import { MAX_INPUTS } from '../../../src/emulator/modules/embeddings/embeddings.schemas.ts'
import { countTokens, IMAGE_TOKENS, loadTokenizer, tokenizerNow } from '../../../src/emulator/core/tokens.ts'
import { imageFeatures, textFeatures } from '../../../src/emulator/modules/embeddings/embeddings-vectors.service.ts'
import { fieldRefusal, refusal } from '../../helpers/refusal.ts'

const MODEL = 'openai/text-embedding-3-small'
const LIMITS: InputLimits = { model: MODEL, contextTokens: 8192, numbers: 'doubles' }
const STRICT: InputLimits = { ...LIMITS, numbers: 'token-ids' }
const SHAPES = 'a string, an array of strings, an array of token ids, an array of arrays of token ids, or an array of content objects'

beforeAll(async () => {
  await loadTokenizer()
})

/** What an item is, with what prepare() works out. */
const read = (input: unknown, limits = LIMITS) =>
  parseInput(input, limits).map((item) => ({ field: item.field, kind: item.kind, input: item.input, ...item.prepare() }))

describe('the shapes of input', () => {
  it('a string: one text item, its words as features, its tokens counted', () => {
    expect(read('Hello world, embeddings!')).toEqual([
      {
        field: 'input',
        kind: 'text',
        input: 'Hello world, embeddings!',
        features: textFeatures('Hello world, embeddings!'),
        tokens: countTokens('Hello world, embeddings!'),
      },
    ])
  })

  it('strings: one item each, named by index', () => {
    expect(read(['a cat', 'a dog']).map(({ field, kind, input, tokens }) => ({ field, kind, input, tokens }))).toEqual([
      { field: 'input[0]', kind: 'text', input: 'a cat', tokens: 2 },
      { field: 'input[1]', kind: 'text', input: 'a dog', tokens: 2 },
    ])
  })

  it('token ids embed as the text they spell, so ids and their text give the same item', () => {
    const text = 'The quick brown fox'
    const ids = tokenizerNow().encode(text)
    const [fromIds] = read(ids)
    const [fromText] = read(text)
    expect(fromIds).toEqual({ ...fromText, tokens: ids.length })
    expect(fromIds!.kind).toBe('text')
  })

  it('lists of token ids: one item each', () => {
    const a = tokenizerNow().encode('red')
    const b = tokenizerNow().encode('green apples')
    expect(read([a, b]).map(({ field, input, tokens }) => ({ field, input, tokens }))).toEqual([
      { field: 'input[0]', input: 'red', tokens: a.length },
      { field: 'input[1]', input: 'green apples', tokens: b.length },
    ])
  })

  it('numbers that are not token ids embed as the numbers themselves, one token each, unless only token ids are taken', () => {
    expect(read([0.5, -2, 1e3])).toEqual([{ field: 'input', kind: 'numbers', input: '0.5 -2 1000', features: textFeatures('0.5 -2 1000'), tokens: 3 }])
    expect(refusal(() => parseInput([0.5], STRICT))).toEqual(fieldRefusal('input[0]', 'must be a token id (an integer >= 0)'))
    expect(refusal(() => parseInput([1, -1], STRICT))).toEqual(fieldRefusal('input[1]', 'must be a token id (an integer >= 0)'))
  })

  it('an id outside the vocabulary: numbers with doubles, refused with token ids only', () => {
    expect(read([9_999_999])[0]).toMatchObject({ kind: 'numbers', input: '9999999', tokens: 1 })
    expect(refusal(() => parseInput([1, 9_999_999], STRICT))).toEqual(fieldRefusal('input', 'holds a token id that is not in the cl100k_base vocabulary'))
  })

  it('content objects: text and image parts together, one identity, text tokens plus a fixed price per image', () => {
    const url = 'https://example.com/cats/tabby.png'
    const [item] = read([
      {
        content: [
          { type: 'text', text: 'a tabby cat' },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ])
    const features = textFeatures('a tabby cat')
    imageFeatures(url, features)
    expect(item).toEqual({
      field: 'input[0]',
      kind: 'content',
      input: `t:a tabby cat\u0000i:${url}`,
      features,
      tokens: countTokens('a tabby cat') + IMAGE_TOKENS,
    })
    // image_url may be the URL itself
    expect(read([{ content: [{ type: 'image_url', image_url: url }] }])[0]).toMatchObject({ input: `i:${url}`, tokens: IMAGE_TOKENS })
  })
})

describe('bad inputs', () => {
  it.each<[string, unknown, ReturnType<typeof fieldRefusal>]>([
    ['no input', undefined, fieldRefusal('input', 'is required')],
    ['an empty string', '', fieldRefusal('input', 'must not be empty')],
    ['an empty list', [], fieldRefusal('input', 'must not be empty')],
    ['a number', 42, fieldRefusal('input', `must be ${SHAPES}`)],
    ['an object', { text: 'a' }, fieldRefusal('input', `must be ${SHAPES}`)],
    ['a list of null', [null], fieldRefusal('input[0]', `must be a string, a token id, an array of token ids or a content object (input is ${SHAPES})`)],
    ['a string among strings that is not one', ['a', 1], fieldRefusal('input[1]', 'must be a string, like the other inputs')],
    ['an empty string among strings', ['a', ''], fieldRefusal('input[1]', 'must not be empty')],
    ['a token id that is not a number', [1, '2'], fieldRefusal('input[1]', 'must be a number')],
    ['a token id that is not finite', [1, Number.NaN], fieldRefusal('input[1]', 'must be a number')],
    ['an empty list of token ids', [[1], []], fieldRefusal('input[1]', 'must not be empty')],
    ['ids among lists of ids', [[1], 2], fieldRefusal('input[1]', 'must be an array of token ids, like the other inputs')],
    ['a content object without content', [{ parts: [] }], fieldRefusal('input[0].content', 'must be an array of text and image_url parts')],
    ['an empty content list', [{ content: [] }], fieldRefusal('input[0].content', 'must not be empty')],
    ['a content part of another type', [{ content: [{ type: 'audio' }] }], fieldRefusal('input[0].content[0].type', 'must be one of text, image_url')],
    ['a text part without text', [{ content: [{ type: 'text' }] }], fieldRefusal('input[0].content[0].text', 'must be a string')],
    ['an empty text part', [{ content: [{ type: 'text', text: '' }] }], fieldRefusal('input[0].content[0].text', 'must not be empty')],
    [
      'an image part without a URL',
      [
        {
          content: [
            { type: 'text', text: 'a' },
            { type: 'image_url', image_url: {} },
          ],
        },
      ],
      fieldRefusal('input[0].content[1].image_url.url', 'must be a non-empty string (an image URL or data URI)'),
    ],
  ])('refuses %s', (_, input, expected) => {
    expect(refusal(() => parseInput(input, LIMITS))).toEqual(expected)
  })

  it('a second content item that is not an object is named', () => {
    expect(refusal(() => parseInput([{ content: [{ type: 'text', text: 'a' }] }, 'x'], LIMITS))).toEqual(
      fieldRefusal('input[1]', 'must be an object with a `content` array'),
    )
  })

  it(`takes ${MAX_INPUTS} inputs and refuses one more`, () => {
    expect(parseInput(Array(MAX_INPUTS).fill('a'), LIMITS)).toHaveLength(MAX_INPUTS)
    expect(refusal(() => parseInput(Array(MAX_INPUTS + 1).fill('a'), LIMITS))).toEqual(fieldRefusal('input', `must have at most ${MAX_INPUTS} items`))
  })
})

describe('bounds checked before tokenizing', () => {
  const small: InputLimits = { model: 'tiny/model', contextTokens: 10, numbers: 'doubles' }
  const maxBytes = small.contextTokens * BYTES_PER_TOKEN_BOUND

  it('refuses a text by its bytes (not its characters) once they are more than the context could hold', () => {
    expect(parseInput('a'.repeat(maxBytes), small)).toHaveLength(1)
    const refused = refusal(() => parseInput(['ok', 'é'.repeat(maxBytes / 2 + 1)], small))
    expect(refused).toEqual({
      status: 400,
      message: `Field \`input[1]\` is ${maxBytes + 2} bytes, longer than any text that fits the 10-token context length of tiny/model (at most ${maxBytes} bytes are read)`,
      metadata: { field: 'input[1]', location: 'body', issue: 'over context length', limit: 10, limit_bytes: maxBytes },
    })
  })

  it('names the text part of a content object that is too long', () => {
    expect(refusal(() => parseInput([{ content: [{ type: 'text', text: 'x'.repeat(maxBytes + 1) }] }], small)).metadata).toMatchObject({
      field: 'input[0].content[0].text',
      issue: 'over context length',
    })
  })

  it('refuses more token ids than the context length, counted as tokens', () => {
    expect(refusal(() => parseInput(Array(11).fill(1), small))).toEqual({
      status: 400,
      message: 'Field `input` is 11 tokens, more than the 10-token context length of tiny/model: shorten it or split it into several inputs',
      metadata: { field: 'input', location: 'body', issue: 'over context length', limit: 10, tokens: 11 },
    })
  })

  it('refuses texts each within its bound that add up to more bytes than one request may hold', () => {
    const each = LIMITS.contextTokens * BYTES_PER_TOKEN_BOUND
    const count = Math.floor((MAX_REQUEST_TOKENS * BYTES_PER_TOKEN_BOUND) / each) + 1
    const refused = refusal(() => parseInput(Array(count).fill('x'.repeat(each)), LIMITS))
    expect(refused.metadata).toEqual({
      field: 'input',
      location: 'body',
      issue: 'over request tokens',
      limit: MAX_REQUEST_TOKENS,
      limit_bytes: MAX_REQUEST_TOKENS * BYTES_PER_TOKEN_BOUND,
    })
    expect(refused.message).toBe(
      `Field \`input\` holds ${count * each} bytes of text, more than fits the ${MAX_REQUEST_TOKENS}-token bound of one request: send the inputs in several requests`,
    )
  })
})

describe('checkRequestTokens', () => {
  it('passes inputs within their context and the request bound, exactly at both', () => {
    expect(() => checkRequestTokens([{ field: 'input', tokens: LIMITS.contextTokens }], LIMITS)).not.toThrow()
    const full = Array.from({ length: MAX_REQUEST_TOKENS / 7500 }, (_, i) => ({ field: `input[${i}]`, tokens: 7500 }))
    expect(() => checkRequestTokens(full, LIMITS)).not.toThrow()
  })

  it('refuses the first input over the context length, naming it', () => {
    expect(
      refusal(() =>
        checkRequestTokens(
          [
            { field: 'input[0]', tokens: 5 },
            { field: 'input[1]', tokens: 8193 },
          ],
          LIMITS,
        ),
      ).metadata,
    ).toEqual({ field: 'input[1]', location: 'body', issue: 'over context length', limit: 8192, tokens: 8193 })
  })

  it('refuses a request of more tokens in all than MAX_REQUEST_TOKENS', () => {
    const inputs = Array.from({ length: 41 }, (_, i) => ({ field: `input[${i}]`, tokens: 7500 }))
    expect(refusal(() => checkRequestTokens(inputs, LIMITS))).toEqual({
      status: 400,
      message: `Field \`input\` is 307500 tokens in all, more than the ${MAX_REQUEST_TOKENS} one request may hold: send the inputs in several requests`,
      metadata: { field: 'input', location: 'body', issue: 'over request tokens', limit: MAX_REQUEST_TOKENS, tokens: 307500 },
    })
  })
})
