// The contract cases of guardrails and their assignments. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { MODEL, get, send, malformed, firstKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'guardrails.list': { gateway: ['get', '/guardrails'] },
  'guardrails.create': { gateway: ['post', '/guardrails'] },
  'guardrails.get': { gateway: ['get', '/guardrails/{id}'] },
  'guardrails.update': { gateway: ['patch', '/guardrails/{id}'] },
  'guardrails.delete': { gateway: ['delete', '/guardrails/{id}'] },
  'guardrails.assignments.keys.listAll': { gateway: ['get', '/guardrails/assignments/keys'] },
  'guardrails.assignments.members.listAll': { gateway: ['get', '/guardrails/assignments/members'] },
  'guardrails.assignments.keys.list': { gateway: ['get', '/guardrails/{id}/assignments/keys'] },
  'guardrails.assignments.keys.assign': { gateway: ['post', '/guardrails/{id}/assignments/keys'] },
  'guardrails.assignments.keys.unassign': { gateway: ['post', '/guardrails/{id}/assignments/keys/remove'] },
  'guardrails.assignments.members.list': { gateway: ['get', '/guardrails/{id}/assignments/members'] },
  'guardrails.assignments.members.assign': { gateway: ['post', '/guardrails/{id}/assignments/members'] },
  'guardrails.assignments.members.unassign': { gateway: ['post', '/guardrails/{id}/assignments/members/remove'] },
}

async function guardrail(emu: TestEmulator): Promise<string> {
  return (await send(emu, 'POST', '/api/v1/guardrails', { name: 'contract' }, emu.keys.management)).body.data.id
}
/** One kind of guardrail assignment (keys or members): list, assign and unassign, each valid, refused and on an unknown guardrail. */
function assignmentCases(
  kind: 'keys' | 'members',
  field: string,
  pick: (emu: TestEmulator) => Promise<string>,
  bad: { assign: unknown; unassign: unknown },
): Case[] {
  const of = async (emu: TestEmulator) => `/api/v1/guardrails/${await guardrail(emu)}/assignments/${kind}`
  const unknown = `/api/v1/guardrails/00000000-0000-4000-8000-000000000000/assignments/${kind}`
  const list = `guardrails.assignments.${kind}.list`
  const cases: Case[] = [
    { operation: list, name: "one guardrail's", status: 200, run: async (emu) => get(emu, await of(emu), emu.keys.management) },
    { operation: list, name: 'an unknown guardrail', status: 404, run: (emu) => get(emu, unknown, emu.keys.management) },
    ...authCases(list, (emu, key) => get(emu, unknown, key), 'management'),
  ]
  for (const [action, suffix] of [
    ['assign', ''],
    ['unassign', '/remove'],
  ] as const) {
    const operation = `guardrails.assignments.${kind}.${action}`
    cases.push(
      {
        operation,
        name: 'one',
        status: 200,
        run: async (emu) => send(emu, 'POST', `${await of(emu)}${suffix}`, { [field]: [await pick(emu)] }, emu.keys.management),
      },
      {
        operation,
        name: `the body ${JSON.stringify(bad[action])}`,
        status: 400,
        run: async (emu) => send(emu, 'POST', `${await of(emu)}${suffix}`, bad[action], emu.keys.management),
      },
      { operation, name: 'an unknown guardrail', status: 404, run: (emu) => send(emu, 'POST', `${unknown}${suffix}`, { [field]: ['x'] }, emu.keys.management) },
      ...authCases(operation, (emu, key) => send(emu, 'POST', `${unknown}${suffix}`, { [field]: ['x'] }, key), 'management'),
    )
  }
  return cases
}

export const cases: Case[] = [
  {
    operation: 'guardrails.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await guardrail(emu), get(emu, '/api/v1/guardrails?offset=0&limit=10', emu.keys.management)),
  },
  { operation: 'guardrails.list', name: 'a limit over 100', status: 400, run: (emu) => get(emu, '/api/v1/guardrails?limit=101', emu.keys.management) },
  ...authCases('guardrails.list', (emu, key) => get(emu, '/api/v1/guardrails', key), 'management'),
  {
    operation: 'guardrails.create',
    name: 'every field',
    status: 201,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/guardrails',
        {
          name: 'Prod',
          description: 'd',
          limit_usd: 5,
          reset_interval: 'monthly',
          allowed_providers: ['openai'],
          ignored_providers: ['azure'],
          allowed_models: [MODEL],
          enforce_zdr: true,
        },
        emu.keys.management,
      ),
  },
  {
    operation: 'guardrails.create',
    name: 'no name',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/guardrails', { description: 'x' }, emu.keys.management),
  },
  {
    operation: 'guardrails.create',
    name: 'a bad reset_interval',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/guardrails', { name: 'x', reset_interval: 'yearly' }, emu.keys.management),
  },
  {
    operation: 'guardrails.create',
    name: 'an empty allowed_models',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/guardrails', { name: 'x', allowed_models: [] }, emu.keys.management),
  },
  { operation: 'guardrails.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/guardrails', emu.keys.management) },
  ...authCases('guardrails.create', (emu, key) => send(emu, 'POST', '/api/v1/guardrails', { name: 'x' }, key), 'management'),
  { operation: 'guardrails.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/guardrails/${await guardrail(emu)}`, emu.keys.management) },
  {
    operation: 'guardrails.get',
    name: 'an unknown id',
    status: 404,
    run: (emu) => get(emu, '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', emu.keys.management),
  },
  { operation: 'guardrails.get', name: 'an id that is not a uuid', status: 404, run: (emu) => get(emu, '/api/v1/guardrails/not-a-uuid', emu.keys.management) },
  ...authCases('guardrails.get', (emu, key) => get(emu, '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', key), 'management'),
  {
    operation: 'guardrails.update',
    name: 'a new limit',
    status: 200,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/guardrails/${await guardrail(emu)}`, { limit_usd: 7, allowed_providers: null }, emu.keys.management),
  },
  {
    operation: 'guardrails.update',
    name: 'a negative limit',
    status: 400,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/guardrails/${await guardrail(emu)}`, { limit_usd: -1 }, emu.keys.management),
  },
  {
    operation: 'guardrails.update',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'PATCH', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', { name: 'x' }, emu.keys.management),
  },
  ...authCases(
    'guardrails.update',
    (emu, key) => send(emu, 'PATCH', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', { name: 'x' }, key),
    'management',
  ),
  {
    operation: 'guardrails.delete',
    name: 'one',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/guardrails/${await guardrail(emu)}`, undefined, emu.keys.management),
  },
  {
    operation: 'guardrails.delete',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'DELETE', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', undefined, emu.keys.management),
  },
  ...authCases('guardrails.delete', (emu, key) => send(emu, 'DELETE', '/api/v1/guardrails/00000000-0000-4000-8000-000000000000', undefined, key), 'management'),
  {
    operation: 'guardrails.assignments.keys.listAll',
    name: 'all key assignments',
    status: 200,
    run: async (emu) => {
      await send(emu, 'POST', `/api/v1/guardrails/${await guardrail(emu)}/assignments/keys`, { key_hashes: [(await firstKey(emu)).hash] }, emu.keys.management)
      return get(emu, '/api/v1/guardrails/assignments/keys', emu.keys.management)
    },
  },
  ...authCases('guardrails.assignments.keys.listAll', (emu, key) => get(emu, '/api/v1/guardrails/assignments/keys', key), 'management'),
  {
    operation: 'guardrails.assignments.members.listAll',
    name: 'all member assignments',
    status: 200,
    run: async (emu) => {
      await send(
        emu,
        'POST',
        `/api/v1/guardrails/${await guardrail(emu)}/assignments/members`,
        { member_user_ids: [(await firstKey(emu)).creator_user_id] },
        emu.keys.management,
      )
      return get(emu, '/api/v1/guardrails/assignments/members', emu.keys.management)
    },
  },
  ...authCases('guardrails.assignments.members.listAll', (emu, key) => get(emu, '/api/v1/guardrails/assignments/members', key), 'management'),
  ...assignmentCases('keys', 'key_hashes', async (emu) => (await firstKey(emu)).hash, { assign: {}, unassign: { key_hashes: [] } }),
  ...assignmentCases('members', 'member_user_ids', async (emu) => (await firstKey(emu)).creator_user_id, { assign: { member_user_ids: [1] }, unassign: {} }),
]
