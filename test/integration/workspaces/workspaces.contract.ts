// The contract cases of workspaces. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { MODEL, CHAT_MODEL, get, send, malformed, firstKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'workspaces.list': { gateway: ['get', '/workspaces'] },
  'workspaces.create': { gateway: ['post', '/workspaces'] },
  'workspaces.get': { gateway: ['get', '/workspaces/{id}'] },
  'workspaces.update': { gateway: ['patch', '/workspaces/{id}'] },
  'workspaces.delete': { gateway: ['delete', '/workspaces/{id}'] },
  'workspaces.budgets.list': { gateway: ['get', '/workspaces/{id}/budgets'] },
  'workspaces.budgets.get': { gateway: ['get', '/workspaces/{id}/budgets/{interval}'] },
  'workspaces.budgets.set': { gateway: ['put', '/workspaces/{id}/budgets/{interval}'] },
  'workspaces.budgets.delete': { gateway: ['delete', '/workspaces/{id}/budgets/{interval}'] },
  'workspaces.members.list': { gateway: ['get', '/workspaces/{id}/members'] },
  'workspaces.members.add': { gateway: ['post', '/workspaces/{id}/members/add'] },
  'workspaces.members.remove': { gateway: ['post', '/workspaces/{id}/members/remove'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'workspaces.list 400': 'a bad offset or limit: the document declares no 400 here; the emulator names the parameter rather than ignoring it',
  'workspaces.members.list 400': 'a bad offset or limit: the document declares no 400 here; the emulator names the parameter rather than ignoring it',
}

/** The workspaces operations: each valid, refused for its input, on an unknown workspace, and without the right key. */
function workspaceCases(): Case[] {
  const ws = '/api/v1/workspaces'
  const unknown = `${ws}/00000000-0000-4000-8000-000000000000`
  const contract = {
    name: 'Contract',
    slug: 'contract',
    description: 'd',
    default_text_model: CHAT_MODEL,
    default_image_model: 'openai/dall-e-3',
    default_provider_sort: 'price',
  }
  const created = async (emu: TestEmulator) => (await send(emu, 'POST', ws, contract, emu.keys.management)).body.data.id as string
  const member = async (emu: TestEmulator) => (await firstKey(emu)).creator_user_id
  const put = (emu: TestEmulator, url: string, body: unknown, key?: string) => emu.send('PUT', url, body, key)
  const budget = (emu: TestEmulator, interval: string, limit_usd: number) => put(emu, `${ws}/default/budgets/${interval}`, { limit_usd }, emu.keys.management)
  const full = {
    name: 'Full',
    slug: 'full',
    io_logging_api_key_ids: [1],
    io_logging_sampling_rate: 0.5,
    is_data_discount_logging_enabled: false,
    is_observability_broadcast_enabled: true,
    is_observability_io_logging_enabled: true,
  }
  return [
    {
      operation: 'workspaces.list',
      name: 'a page',
      status: 200,
      run: async (emu) => (await created(emu), get(emu, `${ws}?offset=1&limit=1`, emu.keys.management)),
    },
    { operation: 'workspaces.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, `${ws}?limit=101`, emu.keys.management) },
    ...authCases('workspaces.list', (emu, key) => get(emu, ws, key), 'management'),
    { operation: 'workspaces.create', name: 'every field', status: 201, run: (emu) => send(emu, 'POST', ws, full, emu.keys.management) },
    {
      operation: 'workspaces.create',
      name: 'default models and a description',
      status: 201,
      run: (emu) => send(emu, 'POST', ws, contract, emu.keys.management),
    },
    {
      operation: 'workspaces.create',
      name: 'a bad slug',
      status: 400,
      run: (emu) => send(emu, 'POST', ws, { name: 'x', slug: 'Not A Slug' }, emu.keys.management),
    },
    {
      operation: 'workspaces.create',
      name: 'a taken slug',
      status: 400,
      run: (emu) => send(emu, 'POST', ws, { name: 'x', slug: 'default' }, emu.keys.management),
    },
    { operation: 'workspaces.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', ws, emu.keys.management) },
    ...authCases('workspaces.create', (emu, key) => send(emu, 'POST', ws, { name: 'x', slug: 'x' }, key), 'management'),
    { operation: 'workspaces.get', name: 'by id', status: 200, run: async (emu) => get(emu, `${ws}/${await created(emu)}`, emu.keys.management) },
    { operation: 'workspaces.get', name: 'by slug', status: 200, run: (emu) => get(emu, `${ws}/default`, emu.keys.management) },
    { operation: 'workspaces.get', name: 'an unknown workspace', status: 404, run: (emu) => get(emu, unknown, emu.keys.management) },
    ...authCases('workspaces.get', (emu, key) => get(emu, `${ws}/default`, key), 'management'),
    {
      operation: 'workspaces.update',
      name: 'a new name and settings',
      status: 200,
      run: async (emu) =>
        send(emu, 'PATCH', `${ws}/${await created(emu)}`, { name: 'Renamed', description: null, io_logging_api_key_ids: [3] }, emu.keys.management),
    },
    {
      operation: 'workspaces.update',
      name: 'a sampling rate over 1',
      status: 400,
      run: (emu) => send(emu, 'PATCH', `${ws}/default`, { io_logging_sampling_rate: 2 }, emu.keys.management),
    },
    { operation: 'workspaces.update', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'PATCH', `${ws}/default`, emu.keys.management) },
    {
      operation: 'workspaces.update',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'PATCH', unknown, { name: 'x' }, emu.keys.management),
    },
    ...authCases('workspaces.update', (emu, key) => send(emu, 'PATCH', `${ws}/default`, { name: 'x' }, key), 'management'),
    {
      operation: 'workspaces.delete',
      name: 'a new workspace',
      status: 200,
      run: async (emu) => send(emu, 'DELETE', `${ws}/${await created(emu)}`, undefined, emu.keys.management),
    },
    {
      operation: 'workspaces.delete',
      name: 'the default workspace',
      status: 403,
      run: (emu) => send(emu, 'DELETE', `${ws}/default`, undefined, emu.keys.management),
    },
    { operation: 'workspaces.delete', name: 'an unknown workspace', status: 404, run: (emu) => send(emu, 'DELETE', unknown, undefined, emu.keys.management) },
    ...authCases('workspaces.delete', (emu, key) => send(emu, 'DELETE', unknown, undefined, key), 'management'),
    {
      operation: 'workspaces.budgets.list',
      name: 'two budgets',
      status: 200,
      run: async (emu) => (await budget(emu, 'monthly', 100), await budget(emu, 'lifetime', 500), get(emu, `${ws}/default/budgets`, emu.keys.management)),
    },
    { operation: 'workspaces.budgets.list', name: 'an unknown workspace', status: 404, run: (emu) => get(emu, `${unknown}/budgets`, emu.keys.management) },
    ...authCases('workspaces.budgets.list', (emu, key) => get(emu, `${ws}/default/budgets`, key), 'management'),
    {
      operation: 'workspaces.budgets.get',
      name: 'a lifetime budget',
      status: 200,
      run: async (emu) => (await budget(emu, 'lifetime', 500), get(emu, `${ws}/default/budgets/lifetime`, emu.keys.management)),
    },
    {
      operation: 'workspaces.budgets.get',
      name: 'an interval without one',
      status: 404,
      run: (emu) => get(emu, `${ws}/default/budgets/daily`, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.get',
      name: 'an unknown interval',
      status: 400,
      run: (emu) => get(emu, `${ws}/default/budgets/hourly`, emu.keys.management),
    },
    ...authCases('workspaces.budgets.get', (emu, key) => get(emu, `${ws}/default/budgets/daily`, key), 'management'),
    {
      operation: 'workspaces.budgets.set',
      name: 'a monthly budget with BYOK',
      status: 200,
      run: (emu) => put(emu, `${ws}/default/budgets/monthly`, { limit_usd: 100, include_byok_in_budgets: true }, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.set',
      name: 'a zero limit',
      status: 400,
      run: (emu) => put(emu, `${ws}/default/budgets/monthly`, { limit_usd: 0 }, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.set',
      name: 'a daily limit above the monthly one',
      status: 400,
      run: async (emu) => (await budget(emu, 'monthly', 10), put(emu, `${ws}/default/budgets/daily`, { limit_usd: 20 }, emu.keys.management)),
    },
    {
      operation: 'workspaces.budgets.set',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => put(emu, `${unknown}/budgets/monthly`, { limit_usd: 1 }, emu.keys.management),
    },
    ...authCases('workspaces.budgets.set', (emu, key) => put(emu, `${ws}/default/budgets/monthly`, { limit_usd: 1 }, key), 'management'),
    {
      operation: 'workspaces.budgets.delete',
      name: 'a budget',
      status: 200,
      run: async (emu) => (await budget(emu, 'weekly', 5), send(emu, 'DELETE', `${ws}/default/budgets/weekly`, undefined, emu.keys.management)),
    },
    {
      operation: 'workspaces.budgets.delete',
      name: 'an unknown interval',
      status: 400,
      run: (emu) => send(emu, 'DELETE', `${ws}/default/budgets/hourly`, undefined, emu.keys.management),
    },
    {
      operation: 'workspaces.budgets.delete',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'DELETE', `${unknown}/budgets/weekly`, undefined, emu.keys.management),
    },
    ...authCases('workspaces.budgets.delete', (emu, key) => send(emu, 'DELETE', `${ws}/default/budgets/weekly`, undefined, key), 'management'),
    {
      operation: 'workspaces.members.list',
      name: "the default workspace's",
      status: 200,
      run: (emu) => get(emu, `${ws}/default/members?offset=1&limit=1`, emu.keys.management),
    },
    {
      operation: 'workspaces.members.list',
      name: "a new workspace's",
      status: 200,
      run: async (emu) => get(emu, `${ws}/${await created(emu)}/members`, emu.keys.management),
    },
    {
      operation: 'workspaces.members.list',
      name: 'a limit over 100',
      status: 400,
      run: (emu) => get(emu, `${ws}/default/members?limit=101`, emu.keys.management),
    },
    { operation: 'workspaces.members.list', name: 'an unknown workspace', status: 404, run: (emu) => get(emu, `${unknown}/members`, emu.keys.management) },
    ...authCases('workspaces.members.list', (emu, key) => get(emu, `${ws}/default/members`, key), 'management'),
    {
      operation: 'workspaces.members.add',
      name: 'a member',
      status: 200,
      run: async (emu) => send(emu, 'POST', `${ws}/${await created(emu)}/members/add`, { user_ids: [await member(emu)] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.add',
      name: 'a stranger',
      status: 400,
      run: async (emu) => send(emu, 'POST', `${ws}/${await created(emu)}/members/add`, { user_ids: ['user_nobody'] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.add',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'POST', `${unknown}/members/add`, { user_ids: ['user_nobody'] }, emu.keys.management),
    },
    ...authCases('workspaces.members.add', (emu, key) => send(emu, 'POST', `${unknown}/members/add`, { user_ids: ['x'] }, key), 'management'),
    {
      operation: 'workspaces.members.remove',
      name: 'a member',
      status: 200,
      run: async (emu) => send(emu, 'POST', `${ws}/${await created(emu)}/members/remove`, { user_ids: [await member(emu)] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.remove',
      name: 'from the default workspace',
      status: 400,
      run: async (emu) => send(emu, 'POST', `${ws}/default/members/remove`, { user_ids: [await member(emu)] }, emu.keys.management),
    },
    {
      operation: 'workspaces.members.remove',
      name: 'an unknown workspace',
      status: 404,
      run: (emu) => send(emu, 'POST', `${unknown}/members/remove`, { user_ids: ['x'] }, emu.keys.management),
    },
    ...authCases('workspaces.members.remove', (emu, key) => send(emu, 'POST', `${unknown}/members/remove`, { user_ids: ['x'] }, key), 'management'),
    {
      operation: 'embeddings.create',
      name: "the workspace's budget spent",
      status: 402,
      run: async (emu) => (
        await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'spend' }, emu.keys.standard),
        await budget(emu, 'daily', 1e-9),
        send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'over' }, emu.keys.standard)
      ),
    },
    {
      operation: 'chat.create',
      name: "the workspace's budget spent",
      status: 402,
      run: async (emu) => (
        await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'spend' }, emu.keys.standard),
        await budget(emu, 'daily', 1e-9),
        send(emu, 'POST', '/api/v1/chat/completions', { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] }, emu.keys.standard)
      ),
    },
  ]
}

export const cases: Case[] = workspaceCases()
