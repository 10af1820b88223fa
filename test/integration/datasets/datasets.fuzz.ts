// The fuzzed operations of public datasets and rankings: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 80, method: 'GET', path: '/api/v1/benchmarks?task_type=search&include_run_config=true&search_surface=plugin&max_results=5', key: 'standard' },
  { place: 81, method: 'GET', path: '/api/v1/classifications/task?window=7d', key: 'standard' },
  {
    place: 82,
    method: 'GET',
    path: '/api/v1/datasets/app-rankings?sort=trending&category=coding&start_date=2025-06-01&end_date=2025-07-01&limit=10&offset=2',
    key: 'standard',
  },
  { place: 83, method: 'GET', path: '/api/v1/datasets/rankings-daily?start_date=2025-12-01&period=week&modality=tool_calling', key: 'standard' },
  { place: 84, method: 'GET', path: '/api/v1/datasets/session-cost?app_slug=hermes-agent&turn_range=1-turn&limit=5&offset=1', key: 'standard' },
]
