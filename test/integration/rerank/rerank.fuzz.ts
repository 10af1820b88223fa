// The fuzzed operations of rerank: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  {
    place: 76,
    method: 'POST',
    path: '/api/v1/rerank',
    key: 'standard',
    body: { model: 'cohere/rerank-v3.5', query: 'capital of France', documents: ['Paris', { text: 'Berlin' }], top_n: 1, provider: { order: ['cohere'] } },
  },
]
