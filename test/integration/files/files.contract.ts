// The contract cases of files. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import type { TestEmulator } from '../../helpers/emulator.ts'
import { form } from '../audio/audio-helpers.ts'
import { auth, get, send, NO_UUID, defaultAccount, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'files.list': { gateway: ['get', '/files'] },
  'files.upload': { gateway: ['post', '/files'] },
  'files.get': { gateway: ['get', '/files/{file_id}'] },
  'files.delete': { gateway: ['delete', '/files/{file_id}'] },
  'files.content': { gateway: ['get', '/files/{file_id}/content'] },
}

/** POST /api/v1/files with a form of the given files. */
const uploadFile = async (emu: TestEmulator, files: Array<{ name: string; bytes: Buffer }>, key: string | undefined) => {
  const body = await form({}, files)
  return emu.request({ method: 'POST', url: '/api/v1/files', headers: { ...auth(key), 'content-type': body.contentType }, payload: body.payload })
}
const someFile = async (emu: TestEmulator): Promise<string> =>
  (await uploadFile(emu, [{ name: 'a.txt', bytes: Buffer.from('hello') }], emu.keys.standard)).body.id
/** A downloadable ("created server-side") file, made over the admin API. */
const serverSideFile = async (emu: TestEmulator): Promise<string> =>
  (await send(emu, 'POST', `/_emulator/api/accounts/${(await defaultAccount(emu)).id}/files`, { filename: 'out.bin', content_base64: 'AAEC' })).body.data.id

export const cases: Case[] = [
  {
    operation: 'files.upload',
    name: 'a text file',
    status: 200,
    run: (emu) => uploadFile(emu, [{ name: 'notes.md', bytes: Buffer.from('# Notes') }], emu.keys.standard),
  },
  {
    operation: 'files.upload',
    name: 'an empty file',
    status: 400,
    run: (emu) => uploadFile(emu, [{ name: 'empty.txt', bytes: Buffer.alloc(0) }], emu.keys.standard),
  },
  {
    operation: 'files.upload',
    name: 'bytes of no type it takes',
    status: 400,
    run: (emu) => uploadFile(emu, [{ name: 'x.bin', bytes: Buffer.from([0, 1, 2]) }], emu.keys.standard),
  },
  {
    operation: 'files.upload',
    name: 'a file over 25 MB',
    status: 413,
    run: (emu) => uploadFile(emu, [{ name: 'big.txt', bytes: Buffer.alloc(25 * 1024 * 1024 + 1, 0x61) }], emu.keys.standard),
  },
  ...authCases('files.upload', (emu, key) => uploadFile(emu, [{ name: 'a.txt', bytes: Buffer.from('x') }], key), 'any'),
  {
    operation: 'files.list',
    name: 'a page',
    status: 200,
    run: async (emu) => (await someFile(emu), await someFile(emu), get(emu, '/api/v1/files?limit=1', emu.keys.standard)),
  },
  { operation: 'files.list', name: 'in the OpenAI shape', status: 200, run: async (emu) => get(emu, '/api/v1/files?provider=openai', emu.keys.standard) },
  { operation: 'files.list', name: 'a reverse cursor', status: 400, run: (emu) => get(emu, '/api/v1/files?before_id=or_file_x', emu.keys.standard) },
  {
    operation: 'files.list',
    name: "another account's workspace",
    status: 403,
    run: (emu) => get(emu, `/api/v1/files?workspace_id=${NO_UUID}`, emu.keys.standard),
  },
  ...authCases('files.list', (emu, key) => get(emu, '/api/v1/files', key), 'any'),
  { operation: 'files.get', name: 'one', status: 200, run: async (emu) => get(emu, `/api/v1/files/${await someFile(emu)}`, emu.keys.standard) },
  { operation: 'files.get', name: 'an unknown id', status: 404, run: (emu) => get(emu, '/api/v1/files/or_file_nothing', emu.keys.standard) },
  ...authCases('files.get', (emu, key) => get(emu, '/api/v1/files/or_file_nothing', key), 'any'),
  {
    operation: 'files.delete',
    name: 'one',
    status: 200,
    run: async (emu) => send(emu, 'DELETE', `/api/v1/files/${await someFile(emu)}`, undefined, emu.keys.standard),
  },
  {
    operation: 'files.delete',
    name: 'an unknown id',
    status: 404,
    run: (emu) => send(emu, 'DELETE', '/api/v1/files/or_file_nothing', undefined, emu.keys.standard),
  },
  ...authCases('files.delete', (emu, key) => send(emu, 'DELETE', '/api/v1/files/or_file_nothing', undefined, key), 'any'),
  {
    operation: 'files.content',
    name: 'a server-side file',
    status: 200,
    run: async (emu) => get(emu, `/api/v1/files/${await serverSideFile(emu)}/content`, emu.keys.standard),
  },
  {
    operation: 'files.content',
    name: 'an upload (not downloadable)',
    status: 400,
    run: async (emu) => get(emu, `/api/v1/files/${await someFile(emu)}/content`, emu.keys.standard),
  },
  { operation: 'files.content', name: 'an unknown id', status: 404, run: (emu) => get(emu, '/api/v1/files/or_file_nothing/content', emu.keys.standard) },
  ...authCases('files.content', (emu, key) => get(emu, '/api/v1/files/or_file_nothing/content', key), 'any'),
]
