// Deterministic, meaningful embeddings without a model: seeded feature hashing.
//
// A text becomes weighted features: its words (stopwords count for little), adjacent word pairs, and
// character trigrams of longer words, so "embedding" and "embeddings" still overlap. Each feature is
// hashed, with the model's name, into a few signed positions of the vector (the "hashing trick"), so
// texts that share words share components. Two dense parts make the vectors look and behave like
// real ones: a direction common to every vector of the model (real embeddings are anisotropic:
// unrelated texts score about 0.15, not 0) and a little per-input noise, so no two different inputs
// give the same vector. The sum is normalised to unit length. Only 32-bit integer hashing, a seeded
// xorshift and IEEE arithmetic are used, so the same (model, input, dimensions) gives the same vector
// on every machine.

/** How many signed positions each feature touches. */
const POSITIONS_PER_FEATURE = 4
/** Weights of the model's common direction and of the per-input noise, relative to the features. */
const COMMON_WEIGHT = 0.45
const NOISE_WEIGHT = 0.3
const STOPWORD_WEIGHT = 0.1
const BIGRAM_WEIGHT = 0.5
/** The trigrams of one word share this weight between them. */
const TRIGRAMS_WEIGHT = 0.6
/** Kinds of feature, so a word and a trigram with the same letters hash apart. */
const WORD = 0x9e3779b1
const BIGRAM = 0x85ebca77
const TRIGRAM = 0xc2b2ae3d
const RAW = 0x27d4eb2f
const IMAGE = 0x165667b1

/** FNV-1a, 32-bit, over a string from a seed: tiny, fast and the same everywhere. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

/** Mixes two 32-bit values into one (murmur3's finaliser over their combination). */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0xcc9e2d51)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** Features of an input: feature hash -> weight (repeats add up). */
export type Features = Map<number, number>

const add = (into: Features, feature: number, weight: number): void => void into.set(feature, (into.get(feature) ?? 0) + weight)

// Words that say little about what a text is about count for little, as in any search index.
const STOPWORDS = new Set(
  (
    'a an and are as at be but by can do does for from had has have how i if in into is it its of on or our so ' +
    'than that the their them then there these they this to was we were what when where which who why will with you your'
  ).split(' '),
)

const WORDS = /[\p{L}\p{N}]+/gu

/** Words, word pairs and trigrams of a text, with weights. */
export function textFeatures(text: string, into: Features = new Map(), scale = 1): Features {
  const words = text.toLowerCase().match(WORDS) ?? []
  let previous = 0
  let previousStop = true
  for (const word of words) {
    const stop = STOPWORDS.has(word)
    const hash = fnv1a(word)
    add(into, mix(hash, WORD), (stop ? STOPWORD_WEIGHT : 1) * scale)
    if (previous !== 0) add(into, mix(mix(previous, hash), BIGRAM), (stop || previousStop ? STOPWORD_WEIGHT : BIGRAM_WEIGHT) * scale)
    if (!stop && word.length >= 4) {
      // Trigrams of "<word>", hashed from the character codes without making substrings.
      const count = word.length
      const weight = (TRIGRAMS_WEIGHT / count) * scale
      for (let j = 0; j < count; j++) {
        const a = j === 0 ? 60 : word.charCodeAt(j - 1)
        const c = j + 1 === count ? 62 : word.charCodeAt(j + 1)
        add(into, mix(((a << 20) ^ (word.charCodeAt(j) << 10) ^ c) >>> 0, TRIGRAM), weight)
      }
    }
    previous = hash
    previousStop = stop
  }
  // A text with no words at all (punctuation, emoji) still gets a feature of its own.
  if (words.length === 0 && text.length > 0) add(into, mix(fnv1a(text), RAW), scale)
  return into
}

/** An image is known by its reference: the same URL or data gives the same vector; URL words overlap. */
export function imageFeatures(reference: string, into: Features = new Map()): Features {
  add(into, mix(fnv1a(reference), IMAGE), 1)
  if (!reference.startsWith('data:')) textFeatures(reference.replace(/^https?:\/\/[^/]+/, ''), into, 0.3)
  return into
}

/** Adds `weight` times a pseudo-random direction (unit length in expectation) drawn from a seed. */
function addNoise(vector: Float64Array, seed: number, weight: number): void {
  let x = seed || 0x9e3779b9
  // Uniform on [-0.5, 0.5) has variance 1/12, so this scale gives the direction a length of about 1.
  const k = weight * Math.sqrt(12 / vector.length) * 2.3283064365386963e-10
  for (let i = 0; i < vector.length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    vector[i]! += (x | 0) * k
  }
}

// The common direction of a (model, dimensions) is the same for every input, so it is made once.
const commonDirections = new Map<string, Float64Array>()
function commonDirection(modelSeed: number, dimensions: number): Float64Array {
  const key = `${modelSeed}:${dimensions}`
  let direction = commonDirections.get(key)
  if (!direction) {
    if (commonDirections.size >= 64) commonDirections.clear()
    direction = new Float64Array(dimensions)
    addNoise(direction, mix(fnv1a(`common:${dimensions}`), modelSeed), COMMON_WEIGHT)
    commonDirections.set(key, direction)
  }
  return direction
}

/** The unit vector of some features for a model, in `dimensions` components. */
export function embedFeatures(model: string, features: Features, dimensions: number, identity: string): Float64Array {
  const vector = new Float64Array(dimensions)
  const modelSeed = fnv1a(model)
  for (const [feature, weight] of features) {
    let x = mix(feature, modelSeed) || 1
    // Damped so a word said ten times does not drown the rest.
    const w = Math.sqrt(weight)
    for (let p = 0; p < POSITIONS_PER_FEATURE; p++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      // Small-integer arithmetic keeps this loop fast: the top bit is the sign, the rest the position.
      vector[(x >>> 1) % dimensions]! += x < 0 ? -w : w
    }
  }
  let norm = 0
  for (let i = 0; i < dimensions; i++) norm += vector[i]! * vector[i]!
  if (norm > 0) {
    const k = 1 / Math.sqrt(norm)
    for (let i = 0; i < dimensions; i++) vector[i]! *= k
  }
  const common = commonDirection(modelSeed, dimensions)
  for (let i = 0; i < dimensions; i++) vector[i]! += common[i]!
  addNoise(vector, mix(fnv1a(identity), modelSeed ^ 0x5bd1e995), NOISE_WEIGHT)
  norm = 0
  for (let i = 0; i < dimensions; i++) norm += vector[i]! * vector[i]!
  const k = 1 / Math.sqrt(norm)
  for (let i = 0; i < dimensions; i++) vector[i]! *= k
  return vector
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return dot / Math.sqrt(na * nb)
}

// Two ASCII digits for each of 00..99, so a 9-digit fraction takes five table lookups.
const DIGIT_PAIRS = new Uint8Array(200)
for (let i = 0; i < 100; i++) {
  DIGIT_PAIRS[i * 2] = 48 + Math.floor(i / 10)
  DIGIT_PAIRS[i * 2 + 1] = 48 + (i % 10)
}

/**
 * Writes a JSON array of the vector's components, each with 9 decimals (0.012345678, -0.500000000),
 * straight into bytes: formatting 24,000 numbers with JavaScript's number-to-string costs several
 * milliseconds, this a fraction of one. Each is a valid JSON number for the component rounded to 9
 * decimals.
 */
export function writeJsonVector(vector: ArrayLike<number>, out: Buffer, at: number): number {
  out[at++] = 91 // [
  for (let i = 0; i < vector.length; i++) {
    if (i > 0) out[at++] = 44 // ,
    let n = Math.round(vector[i]! * 1e9)
    if (n < 0) {
      out[at++] = 45 // -
      n = -n
    }
    // Components are within [-1, 1], so n <= 1e9 fits in 32-bit integer arithmetic.
    if (n >= 1_000_000_000) {
      out[at++] = 49 // 1
      continue
    }
    out[at++] = 48 // 0
    if (n === 0) continue
    out[at++] = 46 // .
    let fraction = n | 0
    // Nine digits, right to left: one single digit, then four pairs.
    let q = (fraction / 10) | 0
    out[at + 8] = 48 + fraction - q * 10
    fraction = q
    for (let d = 6; d >= 0; d -= 2) {
      q = (fraction / 100) | 0
      const pair = (fraction - q * 100) * 2
      out[at + d] = DIGIT_PAIRS[pair]!
      out[at + d + 1] = DIGIT_PAIRS[pair + 1]!
      fraction = q
    }
    at += 9
  }
  out[at++] = 93 // ]
  return at
}

/** Bytes enough for writeJsonVector: "-0." and 9 digits and a comma per component, and brackets. */
export const jsonVectorCapacity = (dimensions: number): number => dimensions * 13 + 2
