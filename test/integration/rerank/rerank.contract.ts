// The contract cases of rerank. Collected by test/integration/contract/contract.test.ts, which
// checks each answer against the real document's operation or the vendor's documented shapes
// (contract/kit.ts says what this file exports).
import { CHAT_MODEL, send, malformed, brokeAccountKey, authCases, type Case, type Real } from '../contract/kit.ts'

/** Where these operations' answers are checked: the real document's operation, the vendor's shape, or nowhere (our own). */
export const real: Record<string, Real> = {
  'rerank.create': { gateway: ['post', '/rerank'] },
}

const RERANK_MODEL = 'cohere/rerank-v3.5'

export const cases: Case[] = [
  {
    operation: 'rerank.create',
    name: 'strings',
    status: 200,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'capital of France', documents: ['Paris', 'Berlin'] }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'objects, top_n and provider preferences',
    status: 200,
    run: (emu) =>
      send(
        emu,
        'POST',
        '/api/v1/rerank',
        { model: RERANK_MODEL, query: 'q', documents: [{ text: 'a' }, 'b', { text: 'c' }], top_n: 2, provider: { order: ['amazon-bedrock'] } },
        emu.keys.standard,
      ),
  },
  {
    operation: 'rerank.create',
    name: 'no documents',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: [] }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'top_n 0',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'], top_n: 0 }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'a chat model',
    status: 400,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: CHAT_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard),
  },
  { operation: 'rerank.create', name: 'a malformed body', status: 400, run: (emu) => malformed(emu, 'POST', '/api/v1/rerank', emu.keys.standard) },
  {
    operation: 'rerank.create',
    name: 'no provider left',
    status: 404,
    run: (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'], provider: { only: ['nobody'] } }, emu.keys.standard),
  },
  {
    operation: 'rerank.create',
    name: 'no credits',
    status: 402,
    run: async (emu) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, await brokeAccountKey(emu)),
  },
  {
    operation: 'rerank.create',
    name: 'rate limited',
    status: 429,
    options: { rateLimitKeyPerMinute: 1 },
    run: async (emu) => (
      await send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard),
      send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard)
    ),
  },
  ...authCases('rerank.create', (emu, key) => send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, key), 'standard'),
  ...[500, 502, 503].map((status): Case => ({
    operation: 'rerank.create',
    name: `a ${status} fault`,
    status,
    run: async (emu) => {
      await send(emu, 'POST', '/_emulator/api/faults', { match: { operation: 'rerank.create' }, action: { status } })
      return send(emu, 'POST', '/api/v1/rerank', { model: RERANK_MODEL, query: 'q', documents: ['a'] }, emu.keys.standard)
    },
  })),
]
