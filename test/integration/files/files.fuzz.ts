// The fuzzed operations of files: a valid request of each, which the fuzz run
// (test/integration/fuzz/fuzz.ts) mutates into bad ones; fuzz/kit.ts says what this file exports.
import { png } from '../../helpers/images.ts'
import type { FuzzOperation } from '../fuzz/kit.ts'

export const operations: FuzzOperation[] = [
  { place: 52, method: 'GET', path: '/api/v1/files?limit=5&order=asc&after_id=or_file_x', key: 'standard' },
  { place: 53, method: 'POST', path: '/api/v1/files?provider=openai', key: 'standard', body: { file: 'not a form' } },
  { place: 54, method: 'GET', path: '/api/v1/files/or_file_x?provider=anthropic', key: 'standard' },
  { place: 55, method: 'GET', path: '/api/v1/files/or_file_x/content', key: 'standard' },
  { place: 56, method: 'DELETE', path: '/api/v1/files/or_file_x', key: 'standard' },
  {
    place: 57,
    method: 'POST',
    path: '/_emulator/api/accounts/{account}/files',
    body: { filename: 'f.txt', content_base64: 'aGVsbG8=' },
    media: [['content_base64']],
  },
  {
    place: 70,
    method: 'POST',
    path: '/api/v1/files?provider=anthropic',
    key: 'standard',
    form: {
      fields: { purpose: 'user_data' },
      files: [{ field: 'file', name: 'notes.md', type: 'text/markdown', bytes: Buffer.from('# Notes\n\nSome *text*.\n') }],
    },
  },
  {
    place: 71,
    method: 'POST',
    path: '/api/v1/files',
    key: 'standard',
    form: { fields: {}, files: [{ field: 'file', name: 'pic.png', type: 'image/png', bytes: png(8, 8) }] },
  },
]
