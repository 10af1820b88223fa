// The contract cases of observability destinations. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { get, send, malformed, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'observability.destinations.list': { gateway: ['get', '/observability/destinations'] },
  'observability.destinations.create': { gateway: ['post', '/observability/destinations'] },
  'observability.destinations.get': { gateway: ['get', '/observability/destinations/{id}'] },
  'observability.destinations.update': { gateway: ['patch', '/observability/destinations/{id}'] },
  'observability.destinations.delete': { gateway: ['delete', '/observability/destinations/{id}'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'observability.destinations.create 404':
    "a workspace_id that is not one of the account's: the document declares no 404 here; every workspace-scoped area answers the same 404 naming workspace_id",
}

/** Observability destinations: each operation valid, refused for its input, on an unknown id, and without the right key. */
function observabilityCases(): Case[] {
  const unknown = '00000000-0000-4000-8000-000000000000'
  const destinations = '/api/v1/observability/destinations'
  const langfuse = { type: 'langfuse', name: 'Contract', config: { publicKey: 'pk-lf-0123456789-abcd', secretKey: 'sk-lf-0123456789-abcd' } }
  const destination = async (emu: TestEmulator) => (await send(emu, 'POST', destinations, langfuse, emu.keys.management)).body.data.id as string
  const m = (emu: TestEmulator) => emu.keys.management
  return [
    {
      operation: 'observability.destinations.list',
      name: 'the list',
      status: 200,
      run: async (emu) => (await destination(emu), get(emu, `${destinations}?offset=0&limit=5`, m(emu))),
    },
    { operation: 'observability.destinations.list', name: 'a limit of 0', status: 400, run: (emu) => get(emu, `${destinations}?limit=0`, m(emu)) },
    ...authCases('observability.destinations.list', (emu, key) => get(emu, destinations, key), 'management'),
    {
      operation: 'observability.destinations.create',
      name: 'a langfuse destination',
      status: 201,
      run: (emu) => send(emu, 'POST', destinations, langfuse, m(emu)),
    },
    {
      operation: 'observability.destinations.create',
      name: 'a webhook with every field',
      status: 201,
      run: (emu) =>
        send(
          emu,
          'POST',
          destinations,
          {
            type: 'webhook',
            name: 'Hook',
            config: { url: 'https://hooks.example.com/traces', method: 'POST', headers: { Authorization: 'Bearer 0123456789abcdef' } },
            enabled: false,
            privacy_mode: true,
            broadcast_generation_cost: true,
            sampling_rate: 0.25,
            filter_rules: { enabled: true, groups: [{ logic: 'or', rules: [{ field: 'model', operator: 'contains', value: 'gpt' }] }] },
          },
          m(emu),
        ),
    },
    {
      operation: 'observability.destinations.create',
      name: 'a webhook without its url',
      status: 400,
      run: (emu) => send(emu, 'POST', destinations, { type: 'webhook', name: 'x', config: {} }, m(emu)),
    },
    { operation: 'observability.destinations.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', destinations, m(emu)) },
    {
      operation: 'observability.destinations.create',
      name: 'a sixth of a type',
      status: 409,
      run: async (emu) => {
        for (let i = 0; i < 5; i++) await send(emu, 'POST', destinations, langfuse, m(emu))
        return send(emu, 'POST', destinations, langfuse, m(emu))
      },
    },
    {
      operation: 'observability.destinations.create',
      name: 'a workspace not of the account',
      status: 404,
      run: (emu) => send(emu, 'POST', destinations, { ...langfuse, workspace_id: unknown }, m(emu)),
    },
    ...authCases('observability.destinations.create', (emu, key) => send(emu, 'POST', destinations, langfuse, key), 'management'),
    {
      operation: 'observability.destinations.get',
      name: 'one',
      status: 200,
      run: async (emu) => get(emu, `${destinations}/${await destination(emu)}`, m(emu)),
    },
    { operation: 'observability.destinations.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, `${destinations}/${unknown}`, m(emu)) },
    ...authCases('observability.destinations.get', (emu, key) => get(emu, `${destinations}/${unknown}`, key), 'management'),
    {
      operation: 'observability.destinations.update',
      name: 'a new name and secret',
      status: 200,
      run: async (emu) =>
        send(
          emu,
          'PATCH',
          `${destinations}/${await destination(emu)}`,
          { name: 'Renamed', enabled: false, config: { secretKey: 'sk-lf-rotated-0123456789' } },
          m(emu),
        ),
    },
    {
      operation: 'observability.destinations.update',
      name: 'a sampling rate over 1',
      status: 400,
      run: async (emu) => send(emu, 'PATCH', `${destinations}/${await destination(emu)}`, { sampling_rate: 2 }, m(emu)),
    },
    {
      operation: 'observability.destinations.update',
      name: 'an unknown id',
      status: 404,
      run: (emu) => send(emu, 'PATCH', `${destinations}/${unknown}`, { name: 'x' }, m(emu)),
    },
    ...authCases('observability.destinations.update', (emu, key) => send(emu, 'PATCH', `${destinations}/${unknown}`, { name: 'x' }, key), 'management'),
    {
      operation: 'observability.destinations.delete',
      name: 'one',
      status: 200,
      run: async (emu) => send(emu, 'DELETE', `${destinations}/${await destination(emu)}`, undefined, m(emu)),
    },
    {
      operation: 'observability.destinations.delete',
      name: 'an unknown id',
      status: 404,
      run: (emu) => send(emu, 'DELETE', `${destinations}/${unknown}`, undefined, m(emu)),
    },
    ...authCases('observability.destinations.delete', (emu, key) => send(emu, 'DELETE', `${destinations}/${unknown}`, undefined, key), 'management'),
  ]
}

export const cases: Case[] = observabilityCases()
