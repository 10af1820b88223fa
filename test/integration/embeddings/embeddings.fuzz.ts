// The fuzzed operations of embeddings: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 60,
    method: 'POST',
    path: '/api/v1/embeddings',
    key: 'standard',
    body: { model: 'openai/text-embedding-3-small', input: ['a', 'b'], dimensions: 8, encoding_format: 'base64', provider: { order: ['openai'] } },
  },
]
