// The contract cases of BYOK credentials. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { get, send, malformed, firstKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'byok.list': { gateway: ['get', '/byok'] },
  'byok.create': { gateway: ['post', '/byok'] },
  'byok.get': { gateway: ['get', '/byok/{id}'] },
  'byok.update': { gateway: ['patch', '/byok/{id}'] },
  'byok.delete': { gateway: ['delete', '/byok/{id}'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'byok.create 404':
    "a workspace_id that is not one of the account's: the document declares no 404 here; every workspace-scoped area answers the same 404 naming workspace_id",
}

/** BYOK credentials: each operation valid, refused for its input, on an unknown id, and without the right key. */
function byokCases(): Case[] {
  const unknown = '00000000-0000-4000-8000-000000000000'
  const credential = async (emu: TestEmulator) =>
    (await send(emu, 'POST', '/api/v1/byok', { provider: 'openai', key: 'sk-proj-contract-0123456789' }, emu.keys.management)).body.data.id as string
  const m = (emu: TestEmulator) => emu.keys.management
  return [
    {
      operation: 'byok.list',
      name: 'the list',
      status: 200,
      run: async (emu) => (await credential(emu), get(emu, '/api/v1/byok?provider=openai&limit=5', m(emu))),
    },
    { operation: 'byok.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, '/api/v1/byok?limit=101', m(emu)) },
    ...authCases('byok.list', (emu, key) => get(emu, '/api/v1/byok', key), 'management'),
    {
      operation: 'byok.create',
      name: 'every field',
      status: 201,
      run: async (emu) =>
        send(
          emu,
          'POST',
          '/api/v1/byok',
          {
            provider: 'anthropic',
            key: 'sk-ant-contract-0123456789',
            name: 'Contract',
            disabled: false,
            is_fallback: true,
            allowed_models: ['anthropic/claude-sonnet-4'],
            allowed_api_key_hashes: [(await firstKey(emu)).hash],
            allowed_user_ids: null,
          },
          m(emu),
        ),
    },
    { operation: 'byok.create', name: 'no key', status: 400, run: (emu) => send(emu, 'POST', '/api/v1/byok', { provider: 'openai' }, m(emu)) },
    {
      operation: 'byok.create',
      name: 'an unknown provider',
      status: 400,
      run: (emu) => send(emu, 'POST', '/api/v1/byok', { provider: 'x', key: 'k' }, m(emu)),
    },
    { operation: 'byok.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/byok', m(emu)) },
    {
      operation: 'byok.create',
      name: 'a workspace not of the account',
      status: 404,
      run: (emu) => send(emu, 'POST', '/api/v1/byok', { provider: 'openai', key: 'k', workspace_id: unknown }, m(emu)),
    },
    ...authCases('byok.create', (emu, key) => send(emu, 'POST', '/api/v1/byok', { provider: 'openai', key: 'k' }, key), 'management'),
    { operation: 'byok.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/byok/${await credential(emu)}`, m(emu)) },
    { operation: 'byok.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, `/api/v1/byok/${unknown}`, m(emu)) },
    ...authCases('byok.get', (emu, key) => get(emu, `/api/v1/byok/${unknown}`, key), 'management'),
    {
      operation: 'byok.update',
      name: 'a new key and name',
      status: 200,
      run: async (emu) =>
        send(emu, 'PATCH', `/api/v1/byok/${await credential(emu)}`, { key: 'sk-proj-rotated-0123456789', name: 'Rotated', disabled: true }, m(emu)),
    },
    {
      operation: 'byok.update',
      name: 'an empty key',
      status: 400,
      run: async (emu) => send(emu, 'PATCH', `/api/v1/byok/${await credential(emu)}`, { key: '' }, m(emu)),
    },
    { operation: 'byok.update', name: 'an unknown id', status: 404, run: (emu) => send(emu, 'PATCH', `/api/v1/byok/${unknown}`, { name: 'x' }, m(emu)) },
    ...authCases('byok.update', (emu, key) => send(emu, 'PATCH', `/api/v1/byok/${unknown}`, { name: 'x' }, key), 'management'),
    { operation: 'byok.delete', name: 'one', status: 200, run: async (emu) => send(emu, 'DELETE', `/api/v1/byok/${await credential(emu)}`, undefined, m(emu)) },
    { operation: 'byok.delete', name: 'an unknown id', status: 404, run: (emu) => send(emu, 'DELETE', `/api/v1/byok/${unknown}`, undefined, m(emu)) },
    ...authCases('byok.delete', (emu, key) => send(emu, 'DELETE', `/api/v1/byok/${unknown}`, undefined, key), 'management'),
  ]
}

export const cases: Case[] = byokCases()
