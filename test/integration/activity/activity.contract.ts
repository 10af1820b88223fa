// The contract cases of activity. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { get, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'activity.list': { gateway: ['get', '/activity'] },
}

export const cases: Case[] = [
  { operation: 'activity.list', name: '30 days', status: 200, options: { demo: true }, run: (emu) => get(emu, '/api/v1/activity', emu.keys.management) },
  {
    operation: 'activity.list',
    name: 'one day',
    status: 200,
    options: { demo: true },
    run: (emu) => get(emu, '/api/v1/activity?date=2026-03-01', emu.keys.management),
  },
  { operation: 'activity.list', name: 'a bad date', status: 400, run: (emu) => get(emu, '/api/v1/activity?date=03/01/2026', emu.keys.management) },
  ...authCases('activity.list', (emu, key) => get(emu, '/api/v1/activity', key), 'management', 403),
]
