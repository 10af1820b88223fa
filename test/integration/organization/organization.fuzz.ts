// The fuzzed operations of organization members and SCIM: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 46, method: 'GET', path: '/api/v1/organization/members?offset=0&limit=5', key: 'management' },
  { place: 47, method: 'GET', path: '/api/v1/scim/groups?offset=1&limit=5', key: 'management' },
  { place: 48, method: 'GET', path: '/api/v1/scim/group-mappings?offset=0&limit=5', key: 'management' },
  {
    place: 49,
    method: 'POST',
    path: '/api/v1/scim/group-mappings',
    key: 'management',
    body: { scim_group_id: '00000000-0000-4000-8000-000000000000', workspace_id: '00000000-0000-4000-8000-000000000000', role: 'member' },
  },
  { place: 50, method: 'PATCH', path: '/api/v1/scim/group-mappings/00000000-0000-4000-8000-000000000000', key: 'management', body: { role: 'admin' } },
  { place: 51, method: 'DELETE', path: '/api/v1/scim/group-mappings/00000000-0000-4000-8000-000000000000?keep_members=true', key: 'management' },
]
