// The contract cases of embeddings. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { MODEL, auth, send, malformed, firstKey, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'embeddings.create': { gateway: ['post', '/embeddings'] },
}

/** Answers that differ from the real documents on purpose, by `operation status` (a row of docs/fidelity.md each). */
export const deliberate: Record<string, string> = {
  'embeddings.create 403': 'a key over its limit: the docs say 402 (the default); 403 "Key limit exceeded" is observed (--key-limit-status 403)',
}

export const cases: Case[] = [
  {
    operation: 'embeddings.create',
    name: 'a string',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'hello' }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'strings as base64, fewer dimensions',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: ['a', 'b'], encoding_format: 'base64', dimensions: 8 }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'token ids',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: [[15339, 1917]] }, emu.keys.standard),
  },
  { operation: 'embeddings.create', name: 'no input', status: 400, run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL }, emu.keys.standard) },
  {
    operation: 'embeddings.create',
    name: 'a bad encoding_format',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x', encoding_format: 'hex' }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'an unknown model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: 'nobody/nothing', input: 'x' }, emu.keys.standard),
  },
  { operation: 'embeddings.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/embeddings', emu.keys.standard) },
  {
    operation: 'embeddings.create',
    name: 'a body that is not JSON',
    status: 400,
    run: (emu) =>
      emu.request({ method: 'POST', url: '/api/v1/embeddings', headers: { ...auth(emu.keys.standard), 'content-type': 'text/plain' }, payload: 'hello' }),
  },
  {
    operation: 'embeddings.create',
    name: 'no provider left',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x', provider: { only: ['nobody'] } }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, await brokeAccountKey(emu)),
  },
  {
    operation: 'embeddings.create',
    name: 'a key over its limit (the observed 403)',
    status: 403,
    options: { keyLimitStatus: 403 },
    run: async (emu) => {
      await send(emu, 'PATCH', `/api/v1/keys/${(await firstKey(emu)).hash}`, { limit: 0 }, emu.keys.management)
      return send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard)
    },
  },
  {
    operation: 'embeddings.create',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard),
      send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard)
    ),
  },
  {
    operation: 'embeddings.create',
    name: 'a list of doubles (the spec)',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: [0.25, -1.5, 3] }, emu.keys.standard),
  },
  {
    operation: 'embeddings.create',
    name: 'a list of doubles with --embeddings-numbers token-ids',
    status: 400,
    options: { embeddingsNumbers: 'token-ids' },
    run: (emu) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: [0.25, -1.5, 3] }, emu.keys.standard),
  },
  ...authCases('embeddings.create', (emu, key) => send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, key), 'standard'),
  ...[500, 502, 503].map((status): Case => ({
    operation: 'embeddings.create',
    name: `a ${status} fault`,
    status,
    run: async (emu) => {
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'embeddings.create' }, action: { status } })
      return send(emu, 'POST', '/api/v1/embeddings', { model: MODEL, input: 'x' }, emu.keys.standard)
    },
  })),
]
