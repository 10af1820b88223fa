// The contract cases of public datasets and rankings (any key; 30 a minute per key). Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { get, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'benchmarks.list': { gateway: ['get', '/benchmarks'] },
  'classifications.task': { gateway: ['get', '/classifications/task'] },
  'datasets.appRankings': { gateway: ['get', '/datasets/app-rankings'] },
  'datasets.rankingsDaily': { gateway: ['get', '/datasets/rankings-daily'] },
  'datasets.sessionCost': { gateway: ['get', '/datasets/session-cost'] },
}

export const cases: Case[] = [
  { operation: 'benchmarks.list', name: 'every source', status: 200, run: (emu) => get(emu, '/api/v1/benchmarks', emu.keys.standard) },
  {
    operation: 'benchmarks.list',
    name: 'search with its run config',
    status: 200,
    run: (emu) => get(emu, '/api/v1/benchmarks?task_type=search&include_run_config=true', emu.keys.standard),
  },
  {
    operation: 'benchmarks.list',
    name: 'the builders arena',
    status: 200,
    run: (emu) => get(emu, '/api/v1/benchmarks?source=design-arena&arena=builders', emu.keys.management),
  },
  { operation: 'benchmarks.list', name: 'a bad source', status: 400, run: (emu) => get(emu, '/api/v1/benchmarks?source=elsewhere', emu.keys.standard) },
  {
    operation: 'benchmarks.list',
    name: 'search from another source',
    status: 400,
    run: (emu) => get(emu, '/api/v1/benchmarks?task_type=search&source=design-arena', emu.keys.standard),
  },
  {
    operation: 'benchmarks.list',
    name: 'the 31st request of a minute',
    status: 429,
    run: async (emu) => {
      for (let i = 0; i < 30; i++) await get(emu, '/api/v1/benchmarks?max_results=1', emu.keys.standard)
      return get(emu, '/api/v1/benchmarks', emu.keys.standard)
    },
  },
  ...authCases('benchmarks.list', (emu, key) => get(emu, '/api/v1/benchmarks', key), 'any'),
  {
    operation: 'classifications.task',
    name: 'the trailing week',
    status: 200,
    run: (emu) => get(emu, '/api/v1/classifications/task?window=7d', emu.keys.standard),
  },
  {
    operation: 'classifications.task',
    name: 'a bad window',
    status: 400,
    run: (emu) => get(emu, '/api/v1/classifications/task?window=30d', emu.keys.standard),
  },
  ...authCases('classifications.task', (emu, key) => get(emu, '/api/v1/classifications/task', key), 'any'),
  { operation: 'datasets.appRankings', name: 'popular', status: 200, run: (emu) => get(emu, '/api/v1/datasets/app-rankings', emu.keys.standard) },
  {
    operation: 'datasets.appRankings',
    name: 'trending coding apps, second page',
    status: 200,
    run: (emu) => get(emu, '/api/v1/datasets/app-rankings?sort=trending&category=coding&limit=5&offset=5', emu.keys.standard),
  },
  {
    operation: 'datasets.appRankings',
    name: 'an end before the dataset',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/app-rankings?end_date=2024-12-31', emu.keys.standard),
  },
  {
    operation: 'datasets.appRankings',
    name: 'a subcategory of another category',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/app-rankings?category=creative&subcategory=cli-agent', emu.keys.standard),
  },
  ...authCases('datasets.appRankings', (emu, key) => get(emu, '/api/v1/datasets/app-rankings', key), 'any'),
  { operation: 'datasets.rankingsDaily', name: 'the last 30 days', status: 200, run: (emu) => get(emu, '/api/v1/datasets/rankings-daily', emu.keys.standard) },
  {
    operation: 'datasets.rankingsDaily',
    name: 'programming by month',
    status: 200,
    run: (emu) => get(emu, '/api/v1/datasets/rankings-daily?category=programming&period=month', emu.keys.standard),
  },
  {
    operation: 'datasets.rankingsDaily',
    name: 'a sampled dataset by day',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/rankings-daily?category=programming&period=day', emu.keys.standard),
  },
  {
    operation: 'datasets.rankingsDaily',
    name: 'no such date',
    status: 400,
    run: (emu) => get(emu, '/api/v1/datasets/rankings-daily?start_date=2026-02-31', emu.keys.standard),
  },
  ...authCases('datasets.rankingsDaily', (emu, key) => get(emu, '/api/v1/datasets/rankings-daily', key), 'any'),
  { operation: 'datasets.sessionCost', name: 'every cell', status: 200, run: (emu) => get(emu, '/api/v1/datasets/session-cost', emu.keys.standard) },
  {
    operation: 'datasets.sessionCost',
    name: 'one harness, long sessions',
    status: 200,
    run: (emu) => get(emu, '/api/v1/datasets/session-cost?app_slug=hermes-agent&turn_range=50-plus-turns&offset=1&limit=2', emu.keys.standard),
  },
  { operation: 'datasets.sessionCost', name: 'a limit of 0', status: 400, run: (emu) => get(emu, '/api/v1/datasets/session-cost?limit=0', emu.keys.standard) },
  ...authCases('datasets.sessionCost', (emu, key) => get(emu, '/api/v1/datasets/session-cost', key), 'any'),
]
