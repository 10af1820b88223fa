// The contract cases of the API keys. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { MODEL, get, send, malformed, firstKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'keys.list': { gateway: ['get', '/keys'] },
  'keys.update': { gateway: ['patch', '/keys/{hash}'] },
  'keys.current': { gateway: ['get', '/key'] },
  'keys.create': { gateway: ['post', '/keys'] },
  'keys.get': { gateway: ['get', '/keys/{hash}'] },
  'keys.delete': { gateway: ['delete', '/keys/{hash}'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'keys.list 403': 'a standard key on a management operation: the spec says 401 (the default); the real service answers 403 (--wrong-key-kind-status 403)',
}

export const cases: Case[] = [
  { operation: 'keys.list', name: 'the list', status: 200, run: (emu) => get(emu, '/api/v1/keys?include_disabled=true&offset=1', emu.keys.management) },
  { operation: 'keys.list', name: 'a bad offset', status: 400, run: (emu) => get(emu, '/api/v1/keys?offset=-1', emu.keys.management) },
  ...authCases('keys.list', (emu, key) => get(emu, '/api/v1/keys', key), 'management'),
  {
    operation: 'keys.list',
    name: 'a standard key as the real service answers it (--wrong-key-kind-status 403)',
    status: 403,
    options: { wrongKeyKindStatus: 403 },
    run: (emu) => get(emu, '/api/v1/keys', emu.keys.standard),
  },
  {
    operation: 'keys.update',
    name: 'a new limit',
    status: 200,
    run: async (emu) =>
      send(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, { limit: 5, limit_reset: 'weekly', name: 'renamed' }, emu.keys.management),
  },
  {
    operation: 'keys.update',
    name: 'a bad limit_reset',
    status: 400,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, { limit_reset: 'hourly' }, emu.keys.management),
  },
  {
    operation: 'keys.update',
    name: 'a malformed body',
    status: 400,
    run: async (emu) => malformed(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, emu.keys.management),
  },
  {
    operation: 'keys.update',
    name: 'an unknown hash',
    status: 404,
    run: (emu) => send(emu, 'PATCH', `/api/v1/keys/${'0'.repeat(64)}`, { name: 'x' }, emu.keys.management),
  },
  ...authCases('keys.update', (emu, key) => send(emu, 'PATCH', `/api/v1/keys/${'0'.repeat(64)}`, { name: 'x' }, key), 'management'),
  { operation: 'keys.current', name: 'a standard key', status: 200, run: (emu) => get(emu, '/api/v1/key', emu.keys.standard) },
  { operation: 'keys.current', name: 'a management key', status: 200, run: (emu) => get(emu, '/api/v1/key', emu.keys.management) },
  {
    operation: 'keys.current',
    name: 'a key with a limit, an expiry and usage',
    status: 200,
    run: async (emu) => {
      const account = (await get(emu, '/_emulator/api/accounts')).body.data[0].id
      const { key } = (
        await send(emu, 'POST', `/_emulator/api/accounts/${account}/keys`, { limit: 2, limit_reset: 'monthly', expires_at: '2027-01-01T00:00:00Z' })
      ).body.data
      await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'spend a little' }, key)
      return get(emu, '/api/v1/key', key)
    },
  },
  ...authCases('keys.current', (emu, key) => get(emu, '/api/v1/key', key), 'any'),

  {
    operation: 'keys.create',
    name: 'a key with every field',
    status: 201,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/keys',
        { name: 'contract', limit: 5, limit_reset: 'monthly', include_byok_in_limit: true, expires_at: '2027-12-31T23:59:59Z' },
        emu.keys.management,
      ),
  },
  { operation: 'keys.create', name: 'no name', status: 400, run: (emu) => send(emu, 'POST', '/api/v1/keys', { limit: 5 }, emu.keys.management) },
  {
    operation: 'keys.create',
    name: 'an expiry in another time zone',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/keys', { name: 'x', expires_at: '2027-12-31T23:59:59+02:00' }, emu.keys.management),
  },
  ...authCases('keys.create', (emu, key) => send(emu, 'POST', '/api/v1/keys', { name: 'x' }, key), 'management'),
  {
    operation: 'keys.create',
    name: 'a standard key as the real service answers it (--wrong-key-kind-status 403)',
    status: 403,
    options: { wrongKeyKindStatus: 403 },
    run: (emu) => send(emu, 'POST', '/api/v1/keys', { name: 'x' }, emu.keys.standard),
  },
  {
    operation: 'keys.get',
    name: 'a key made by POST /keys',
    status: 200,
    run: async (emu) =>
      get(emu, `/api/v1/keys/${(await send(emu, 'POST', '/api/v1/keys', { name: 'x' }, emu.keys.management)).body.data.hash}`, emu.keys.management),
  },
  { operation: 'keys.get', name: 'an unknown hash', status: 404, run: (emu) => get(emu, `/api/v1/keys/${'0'.repeat(64)}`, emu.keys.management) },
  ...authCases('keys.get', (emu, key) => get(emu, `/api/v1/keys/${'0'.repeat(64)}`, key), 'management'),
  {
    operation: 'keys.delete',
    name: 'a seeded key',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/keys/${(await firstKey(emu)).hash}`, undefined, emu.keys.management),
  },
  {
    operation: 'keys.delete',
    name: 'an unknown hash',
    status: 404,
    run: (emu) => send(emu, 'DELETE', `/api/v1/keys/${'0'.repeat(64)}`, undefined, emu.keys.management),
  },
  ...authCases('keys.delete', (emu, key) => send(emu, 'DELETE', `/api/v1/keys/${'0'.repeat(64)}`, undefined, key), 'management'),
]
