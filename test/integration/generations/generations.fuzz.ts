// The fuzzed operations of generation content and feedback: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 58, method: 'GET', path: '/api/v1/generation/content?id=gen-0-x', key: 'standard' },
  { place: 59, method: 'POST', path: '/api/v1/generation/feedback', key: 'management', body: { generation_id: 'gen-0-x', category: 'other', comment: 'c' } },
]
