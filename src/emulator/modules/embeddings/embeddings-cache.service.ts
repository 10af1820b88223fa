// Recently made vectors and answers, bounded by bytes. A vector is a pure function of (model,
// dimensions, input), and apps re-embed the same texts all the time (an index rebuilt on every run),
// while writing 1536 numbers out costs more than everything else a request does. Two kinds of entry
// share one least-recently-used order and one byte bound:
// - a vector, with its JSON and base64 encodings made on first use;
// - the `data` array of a whole answer that came twice (its vectors encoded, in order), so a repeated
//   request is sent as three pieces (its own id and usage around the cached array), not 3 per input.
import { ownedConcat, ownedCopy } from '../../core/buffers.ts'
import { fnv1a, jsonVectorCapacity, writeJsonVector } from './embeddings-vectors.service.ts'

const CACHE_MAX_BYTES = 24 * 1024 * 1024

/** What a vector is made of: the kind of input (text, numbers, content) and the input itself. */
export type InputKind = 'text' | 'numbers' | 'content'

interface Entry {
  bytes: number
  forget(): void
}

export interface CachedVector extends Entry {
  /** Unique per entry: a vector made again after eviction gets a new one, so no stale answer matches it. */
  serial: number
  vector: Float64Array
  tokens: number
  json?: Buffer
  base64?: Buffer
}

// Insertion order is recency: a hit is moved to the end, eviction takes from the start.
const recency = new Set<Entry>()
let cachedBytes = 0
let nextSerial = 1

// Vectors by (model, dimensions, kind), then by the input string itself: a lookup hashes the string
// the request parsed (V8 keeps its hash), not a key built anew per input.
export interface Shelf {
  /** Seeds the hashes of the shelf's inputs for the doorkeeper. */
  seed: number
  vectors: Map<string, CachedVector>
}
const shelves = new Map<string, Shelf>()

// The doorkeeper (as in TinyLFU): an input is cached the second time it is seen within the last few
// thousand, known until then only by a 32-bit hash. Texts that never repeat (an index of new
// documents) would otherwise churn the whole cache, each vector living just long enough to reach
// the old generation and be freed only by a full collection: 24 MB of churn per 50 requests of 16.
const seenOnce = new Set<number>()
const SEEN_ONCE_MAX = 4096

function secondSighting(hash: number): boolean {
  if (seenOnce.delete(hash)) return true
  if (seenOnce.size >= SEEN_ONCE_MAX) seenOnce.clear()
  seenOnce.add(hash)
  return false
}
const answers = new Map<string, Entry & { data: Buffer }>()

// A vector's key holds its whole input (up to 128 KB of text): it counts, at two bytes a character (V8
// keeps a string in one or two bytes a character), or small vectors of long texts would hold unbounded memory.
const keyBytes = (key: string): number => 2 * key.length

function touch(entry: Entry): void {
  recency.delete(entry)
  recency.add(entry)
}

function admit(entry: Entry): void {
  recency.add(entry)
  cachedBytes += entry.bytes
  evictOverBudget()
}

function grow(entry: Entry, bytes: number): void {
  entry.bytes += bytes
  cachedBytes += bytes
  evictOverBudget()
}

function evictOverBudget(): void {
  for (const oldest of recency) {
    if (cachedBytes <= CACHE_MAX_BYTES) break
    recency.delete(oldest)
    cachedBytes -= oldest.bytes
    oldest.forget()
  }
}

/** What the cache holds now, and its bound (GET /_emulator/api/stats). */
export const vectorCacheStats = (): { entries: number; bytes: number; limit_bytes: number } => ({
  entries: recency.size,
  bytes: cachedBytes,
  limit_bytes: CACHE_MAX_BYTES,
})

/** The shelf of one (model, dimensions, kind): look it up once per request, then each input on it. */
export function shelf(model: string, dimensions: number, kind: InputKind): Shelf {
  const name = `${model}\u0000${dimensions}\u0000${kind}`
  let found = shelves.get(name)
  if (!found) shelves.set(name, (found = { seed: fnv1a(name), vectors: new Map<string, CachedVector>() }))
  return found
}

/** The cached vector of `input` on `on`, or one made by `make` (and cached if `input` came before). */
export function cachedVector(on: Shelf, input: string, make: () => { vector: Float64Array; tokens: number }): CachedVector {
  const hit = on.vectors.get(input)
  if (hit) {
    touch(hit)
    return hit
  }
  const { vector, tokens } = make()
  const entry: CachedVector = {
    serial: nextSerial++,
    vector,
    tokens,
    bytes: keyBytes(input) + vector.byteLength,
    forget: () => on.vectors.delete(input),
  }
  if (secondSighting(fnv1a(input, on.seed))) {
    on.vectors.set(input, entry)
    admit(entry)
  }
  return entry
}

let scratch = Buffer.alloc(0)
const ANSWER_SEED = 0x2545f491

/**
 * The vector as it appears in an answer: a JSON array of numbers, or a quoted base64 string of its
 * float32 little-endian bytes (what the openai client decodes).
 */
function encoded(entry: CachedVector, base64: boolean): Buffer {
  let bytes = base64 ? entry.base64 : entry.json
  if (bytes) return bytes
  if (base64) {
    bytes = entry.base64 = ownedCopy(Buffer.from(`"${Buffer.from(new Float32Array(entry.vector).buffer).toString('base64')}"`, 'latin1'))
  } else {
    // Written into a scratch buffer, then copied at its exact size: the cache holds no spare capacity
    // and no 20 KB of garbage is left per vector.
    if (scratch.length < jsonVectorCapacity(entry.vector.length)) scratch = Buffer.allocUnsafeSlow(jsonVectorCapacity(entry.vector.length))
    bytes = entry.json = ownedCopy(scratch.subarray(0, writeJsonVector(entry.vector, scratch, 0)))
  }
  if (recency.has(entry)) grow(entry, bytes.length)
  return bytes
}

/**
 * The `"data":[...]` member of an answer holding these vectors in this order (the same bytes as
 * JSON.stringify would give for `{object: 'embedding', embedding, index}` each), as pieces: one cached
 * buffer for an answer given before, the vectors' own encodings between small joints otherwise.
 */
export function dataMember(vectors: readonly CachedVector[], base64: boolean): Buffer[] {
  const key = `${base64 ? 'b' : 'f'}${vectors.map((v) => v.serial).join(',')}`
  const hit = answers.get(key)
  if (hit) {
    touch(hit)
    return [hit.data]
  }
  const parts: Buffer[] = [Buffer.from('"data":[', 'latin1')]
  vectors.forEach((vector, index) => {
    parts.push(
      Buffer.from(`${index > 0 ? ',' : ''}{"object":"embedding","embedding":`, 'latin1'),
      encoded(vector, base64),
      Buffer.from(`,"index":${index}}`, 'latin1'),
    )
  })
  parts.push(Buffer.from(']', 'latin1'))
  // Joined and cached the second time it is asked for, as vectors are (a one-off answer costs no 300 KB copy).
  if (!secondSighting(fnv1a(key, ANSWER_SEED))) return parts
  const data = ownedConcat(parts)
  const entry = { data, bytes: data.length + keyBytes(key), forget: () => answers.delete(key) }
  answers.set(key, entry)
  admit(entry)
  return [data]
}
