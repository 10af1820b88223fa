// The fuzzed operations of the catalog (models, endpoints, providers) and its admin API: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 8, method: 'GET', path: '/api/v1/models?output_modalities=text&category=programming&supported_parameters=tools&limit=5&offset=1' },
  { place: 9, method: 'GET', path: '/api/v1/models?use_rss=true' },
  { place: 10, method: 'GET', path: '/api/v1/models/user?region=eu', key: 'standard' },
  { place: 11, method: 'GET', path: '/api/v1/models/openai/gpt-4.1/endpoints' },
  { place: 12, method: 'GET', path: '/api/v1/endpoints/zdr' },
  { place: 13, method: 'GET', path: '/api/v1/model/openai/gpt-4.1' },
  { place: 14, method: 'GET', path: '/api/v1/providers' },
  { place: 15, method: 'GET', path: '/api/v1/embeddings/models?offset=0&limit=5' },
  { place: 108, method: 'POST', path: '/_emulator/api/catalog/models', body: { models: [] } },
]
