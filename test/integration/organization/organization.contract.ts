// The contract cases of organization members and SCIM. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { get, send, NO_UUID, defaultAccount, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'organization.members.list': { gateway: ['get', '/organization/members'] },
  'scim.groups.list': { gateway: ['get', '/scim/groups'] },
  'scim.mappings.list': { gateway: ['get', '/scim/group-mappings'] },
  'scim.mappings.create': { gateway: ['post', '/scim/group-mappings'] },
  'scim.mappings.get': { gateway: ['get', '/scim/group-mappings/{id}'] },
  'scim.mappings.update': { gateway: ['patch', '/scim/group-mappings/{id}'] },
  'scim.mappings.delete': { gateway: ['delete', '/scim/group-mappings/{id}'] },
}

/** A SCIM group mapping of the default account's first group to its workspace. */
async function scimMapping(emu: TestEmulator): Promise<string> {
  const group = (await get(emu, '/api/v1/scim/groups', emu.keys.management)).body.data[0].id
  const body = { scim_group_id: group, workspace_id: (await defaultAccount(emu)).workspace_id, role: 'member' }
  return (await send(emu, 'POST', '/api/v1/scim/group-mappings', body, emu.keys.management)).body.data.id
}

export const cases: Case[] = [
  {
    operation: 'organization.members.list',
    name: 'a page',
    status: 200,
    run: (emu) => get(emu, '/api/v1/organization/members?offset=0&limit=10', emu.keys.management),
  },
  ...authCases('organization.members.list', (emu, key) => get(emu, '/api/v1/organization/members', key), 'management'),
  { operation: 'scim.groups.list', name: 'the directory', status: 200, run: (emu) => get(emu, '/api/v1/scim/groups?limit=5', emu.keys.management) },
  ...authCases('scim.groups.list', (emu, key) => get(emu, '/api/v1/scim/groups', key), 'management'),
  {
    operation: 'scim.mappings.list',
    name: 'the list',
    status: 200,
    run: async (emu) => (await scimMapping(emu), get(emu, '/api/v1/scim/group-mappings', emu.keys.management)),
  },
  ...authCases('scim.mappings.list', (emu, key) => get(emu, '/api/v1/scim/group-mappings', key), 'management'),
  {
    operation: 'scim.mappings.create',
    name: 'a mapping',
    status: 201,
    run: async (emu) => {
      const group = (await get(emu, '/api/v1/scim/groups', emu.keys.management)).body.data[0].id
      const body = { scim_group_id: group, workspace_id: (await defaultAccount(emu)).workspace_id, role: 'admin' }
      return send(emu, 'POST', '/api/v1/scim/group-mappings', body, emu.keys.management)
    },
  },
  {
    operation: 'scim.mappings.create',
    name: 'an unknown role',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/scim/group-mappings', { scim_group_id: NO_UUID, workspace_id: NO_UUID, role: 'owner' }, emu.keys.management),
  },
  {
    operation: 'scim.mappings.create',
    name: 'a group outside the directory',
    status: 404,
    run: async (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/scim/group-mappings',
        { scim_group_id: NO_UUID, workspace_id: (await defaultAccount(emu)).workspace_id, role: 'member' },
        emu.keys.management,
      ),
  },
  {
    operation: 'scim.mappings.create',
    name: 'a group mapped twice to one workspace',
    status: 409,
    run: async (emu) => {
      const first = (await get(emu, `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, emu.keys.management)).body.data
      return send(
        emu,
        'POST',
        '/api/v1/scim/group-mappings',
        { scim_group_id: first.scim_group_id, workspace_id: first.workspace_id, role: 'admin' },
        emu.keys.management,
      )
    },
  },
  ...authCases(
    'scim.mappings.create',
    (emu, key) => send(emu, 'POST', '/api/v1/scim/group-mappings', { scim_group_id: NO_UUID, workspace_id: NO_UUID, role: 'member' }, key),
    'management',
  ),
  {
    operation: 'scim.mappings.get',
    name: 'one',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, emu.keys.management),
  },
  { operation: 'scim.mappings.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, `/api/v1/scim/group-mappings/${NO_UUID}`, emu.keys.management) },
  ...authCases('scim.mappings.get', (emu, key) => get(emu, `/api/v1/scim/group-mappings/${NO_UUID}`, key), 'management'),
  {
    operation: 'scim.mappings.update',
    name: 'a new role',
    status: 200,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, { role: 'admin' }, emu.keys.management),
  },
  {
    operation: 'scim.mappings.update',
    name: 'an unknown role',
    status: 400,
    run: async (emu) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, { role: 'owner' }, emu.keys.management),
  },
  {
    operation: 'scim.mappings.update',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${NO_UUID}`, { role: 'admin' }, emu.keys.management),
  },
  ...authCases('scim.mappings.update', (emu, key) => send(emu, 'PATCH', `/api/v1/scim/group-mappings/${NO_UUID}`, { role: 'admin' }, key), 'management'),
  {
    operation: 'scim.mappings.delete',
    name: 'one, keeping its members',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${await scimMapping(emu)}?keep_members=true`, undefined, emu.keys.management),
  },
  {
    operation: 'scim.mappings.delete',
    name: 'no keep_members (it has no default)',
    status: 400,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${await scimMapping(emu)}`, undefined, emu.keys.management),
  },
  {
    operation: 'scim.mappings.delete',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${NO_UUID}?keep_members=false`, undefined, emu.keys.management),
  },
  ...authCases(
    'scim.mappings.delete',
    (emu, key) => send(emu, 'DELETE', `/api/v1/scim/group-mappings/${NO_UUID}?keep_members=false`, undefined, key),
    'management',
  ),
]
