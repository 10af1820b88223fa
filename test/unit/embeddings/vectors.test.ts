// Seeded feature hashing without a model (embeddings-vectors.service.ts): the features a text or an image gives, vectors
// that are deterministic, of the asked dimensions and unit length, that score related texts above
// unrelated ones, and the JSON writer that serves their components with 9 decimals.
import { describe, expect, it } from 'vitest'
import {
  cosine,
  embedFeatures,
  fnv1a,
  imageFeatures,
  jsonVectorCapacity,
  textFeatures,
  writeJsonVector,
} from '../../../src/emulator/modules/embeddings/embeddings-vectors.service.ts'

const MODEL = 'openai/text-embedding-3-small'
const embed = (text: string, dimensions = 1536, model = MODEL) => embedFeatures(model, textFeatures(text), dimensions, text)
const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((sum, x) => sum + x * x, 0))
const weights = (features: Map<number, number>) => [...features.values()].sort((a, b) => a - b)

describe('fnv1a', () => {
  it('is 32-bit FNV-1a: the published test vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5)
    expect(fnv1a('a')).toBe(0xe40c292c)
    expect(fnv1a('foobar')).toBe(0xbf9cf968)
  })

  it('starts from another seed when given one', () => {
    expect(fnv1a('a', 1)).not.toBe(fnv1a('a'))
    expect(fnv1a('', 1)).toBe(1)
  })
})

describe('textFeatures', () => {
  it('ignores case and punctuation', () => {
    expect(textFeatures('Hello, World!')).toEqual(textFeatures('hello world'))
  })

  it('weighs a stopword 0.1 and a short word 1, with no trigrams under four letters', () => {
    expect(weights(textFeatures('the'))).toEqual([0.1])
    expect(weights(textFeatures('fox'))).toEqual([1])
  })

  it('adds the trigrams of a longer word, sharing 0.6 between them', () => {
    const features = textFeatures('cats')
    expect(features.size).toBe(5) // the word, and <ca cat ats ts>
    expect([...features.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1.6, 12)
  })

  it('pairs adjacent words at 0.5, or 0.1 when either is a stopword', () => {
    expect(weights(textFeatures('red fox'))).toEqual([0.5, 1, 1])
    expect(weights(textFeatures('the fox'))).toEqual([0.1, 0.1, 1])
  })

  it('adds up repeats', () => {
    expect(weights(textFeatures('fox fox'))).toEqual([0.5, 2])
  })

  it('gives a text without words one feature of its own, and nothing to an empty text', () => {
    expect(weights(textFeatures('!!!'))).toEqual([1])
    expect(textFeatures('!!!')).not.toEqual(textFeatures('???'))
    expect(textFeatures('').size).toBe(0)
  })

  it('adds into a given map, scaled', () => {
    const into = textFeatures('fox')
    textFeatures('fox', into, 0.5)
    expect(weights(into)).toEqual([1.5])
  })
})

describe('imageFeatures', () => {
  it('knows an inline image by its data alone', () => {
    expect(imageFeatures('data:image/png;base64,AAAA').size).toBe(1)
    expect(imageFeatures('data:image/png;base64,AAAA')).not.toEqual(imageFeatures('data:image/png;base64,AAAB'))
  })

  it('adds the words of a URL path at 0.3, whatever the host', () => {
    const a = imageFeatures('https://a.example/fox.png')
    const b = imageFeatures('https://b.example/fox.png')
    expect(weights(a)).toEqual([0.15, 0.3, 0.3, 1])
    const shared = [...a.keys()].filter((k) => b.has(k))
    expect(shared).toHaveLength(a.size - 1) // all but the image's own feature
  })
})

describe('embedFeatures', () => {
  it.each([1, 3, 256, 1024, 1536, 3072])('gives %i components of unit length', (dimensions) => {
    const v = embed('The quick brown fox', dimensions)
    expect(v).toHaveLength(dimensions)
    expect(norm(v)).toBeCloseTo(1, 12)
  })

  it('is deterministic: the same model, features, dimensions and identity give the same vector', () => {
    expect(Array.from(embed('a tabby cat sleeps'))).toEqual(Array.from(embed('a tabby cat sleeps')))
  })

  it('differs by model, by identity, and by dimensions', () => {
    const base = embed('a tabby cat sleeps')
    expect(cosine(base, embed('a tabby cat sleeps', 1536, 'cohere/embed-v4.0'))).toBeLessThan(0.3)
    const sameFeatures = embedFeatures(MODEL, textFeatures('a tabby cat sleeps'), 1536, 'another identity')
    expect(Array.from(sameFeatures)).not.toEqual(Array.from(base))
    expect(cosine(sameFeatures, base)).toBeGreaterThan(0.8)
    expect(Array.from(embed('a tabby cat sleeps', 256))).not.toEqual(Array.from(base.slice(0, 256)))
  })

  it('scores texts that share words above unrelated ones, and unrelated ones a little above 0 (anisotropy)', () => {
    const query = embed('how do embeddings models work')
    const related = cosine(query, embed('embedding models explained'))
    const unrelated = cosine(query, embed('banana bread recipe with walnuts'))
    expect(related).toBeGreaterThan(unrelated + 0.2)
    expect(unrelated).toBeGreaterThan(0.05)
    expect(unrelated).toBeLessThan(0.4)
  })

  it('gives features of no words a unit vector too', () => {
    expect(norm(embedFeatures(MODEL, new Map(), 64, ''))).toBeCloseTo(1, 12)
  })
})

describe('cosine', () => {
  it('is 1 for the same direction, 0 for orthogonal, -1 for opposite, whatever the lengths', () => {
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 15)
    expect(cosine([1, 0], [0, 5])).toBe(0)
    expect(cosine([1, -1], [-3, 3])).toBeCloseTo(-1, 15)
  })
})

describe('writeJsonVector', () => {
  const write = (vector: number[]) => {
    const out = Buffer.alloc(jsonVectorCapacity(vector.length))
    const end = writeJsonVector(vector, out, 0)
    return out.toString('latin1', 0, end)
  }

  it('writes each component with 9 decimals, 0 and ±1 as integers', () => {
    expect(write([0.5, -0.25, 0, 1, -1, 0.0123456789, -0.000000001])).toBe('[0.500000000,-0.250000000,0,1,-1,0.012345679,-0.000000001]')
  })

  it('writes what rounds to zero as 0, never -0', () => {
    expect(write([-0, -1e-12, 4e-10])).toBe('[0,0,0]')
  })

  it('writes an empty vector as []', () => {
    expect(write([])).toBe('[]')
  })

  it('writes at the offset given and returns where it stopped', () => {
    const out = Buffer.alloc(20, 0x20)
    const end = writeJsonVector([0.5], out, 3)
    expect(end).toBe(3 + '[0.500000000]'.length)
    expect(out.toString('latin1', 0, end)).toBe('   [0.500000000]')
  })

  it('stays within jsonVectorCapacity at worst, and reads back as the components rounded to 9 decimals', () => {
    const worst = Array(1000).fill(-0.123456789)
    expect(write(worst).length).toBeLessThanOrEqual(jsonVectorCapacity(1000))
    const v = Array.from(embed('round trip', 3072))
    const parsed = JSON.parse(write(v)) as number[]
    expect(parsed).toHaveLength(3072)
    for (let i = 0; i < v.length; i++) expect(Math.abs(parsed[i]! - v[i]!)).toBeLessThanOrEqual(5e-10 + 1e-15)
  })
})
